"""Provided APIs: what a CSV serves, what an OperatorGroup claims, and how OLM reconciles
the two across intersecting groups (R-API-1..9), plus CRD owner conflicts inside a
namespace (R-CSV-O).

An API key is the string ``Kind.version.group``; OLM strips the plural before comparing, so
the key never carries it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.records import findings
from olmtui.model.records.types import APIReconciliation, Conflict, Finding, Verdict
from olmtui.model.rules.csvs.replacements import ReplacementIndex
from olmtui.model.rules.documented.platform import is_platform_owned
from olmtui.objects import Obj, annotations_of, spec

APISet = frozenset[str]

PROVIDED_APIS_ANNOTATION = "olm.providedAPIs"

CONFLICT_REASON = "InterOperatorGroupOwnerConflict"
CONFLICT_MESSAGE = "intersecting operatorgroups provide the same apis"
STATIC_REASON = "CannotModifyStaticOperatorGroupProvidedAPIs"
STATIC_MESSAGE = "static provided api operatorgroup cannot be modified by these apis"


@frozen
class APISurface:
    """A CSV's API surface. ``malformed`` names owned or required CRDs without a ``.``:
    OLM aborts such a CSV's sync silently (R-MEM-0, R-API-1)."""

    provided: APISet
    required: APISet
    malformed: tuple[str, ...] = ()


def _crd_key(entry: Mapping[str, Any]) -> tuple[str | None, bool]:
    """R-API-1: group is what follows the first ``.`` of the CRD name."""
    name = str(entry.get("name") or "")
    if "." not in name:
        return None, False
    group = name.split(".", 1)[1]
    return f"{entry.get('kind') or ''}.{entry.get('version') or ''}.{group}", True


def _entries(spec: Mapping[str, Any], section: str, which: str) -> list[Mapping[str, Any]]:
    block = spec.get(section)
    if not isinstance(block, Mapping):
        return []
    items = block.get(which)
    return [i for i in items if isinstance(i, Mapping)] if isinstance(items, list) else []


def api_surface(csv: Obj) -> APISurface:
    """R-API-1: owned CRDs and owned APIServices are provided; required ones are required."""
    csv_spec = spec(csv)
    result: dict[str, set[str]] = {"owned": set(), "required": set()}
    malformed: list[str] = []
    for which in ("owned", "required"):
        for entry in _entries(csv_spec, "customresourcedefinitions", which):
            key, ok = _crd_key(entry)
            if ok and key is not None:
                result[which].add(key)
            else:
                malformed.append(str(entry.get("name") or ""))
        for entry in _entries(csv_spec, "apiservicedefinitions", which):
            result[which].add(
                f"{entry.get('kind') or ''}.{entry.get('version') or ''}.{entry.get('group') or ''}"
            )
    return APISurface(frozenset(result["owned"]), frozenset(result["required"]), tuple(malformed))


#: The one empty API set the parse returns: most groups claim nothing, and a new empty
#: frozenset per group costs 200 bytes each.
_NO_APIS: APISet = frozenset()


def parse_provided_apis(text: str | None) -> APISet:
    """R-API-2: drop spaces, split on ``,``, keep pieces with at least two dots."""
    if not text:
        return _NO_APIS
    keys = set()
    for piece in text.replace(" ", "").split(","):
        parts = piece.split(".", 2)
        if len(parts) == 3:
            keys.add(piece)
    return frozenset(keys) if keys else _NO_APIS


def format_provided_apis(apis: Iterable[str]) -> str:
    """R-API-3: sorted by byte order, comma-joined, no spaces; empty set -> ``""``."""
    return ",".join(sorted(apis, key=lambda s: s.encode()))


def group_provided_apis(og: Obj) -> tuple[str | None, APISet]:
    """The raw ``olm.providedAPIs`` value of a group (``None`` when absent) and its parse."""
    raw = annotations_of(og).get(PROVIDED_APIS_ANNOTATION)
    return raw, parse_provided_apis(raw)


def reconcile_api_intersection(
    csv_apis: APISet, group_apis: APISet, other_apis: APISet
) -> APIReconciliation:
    """R-API-5: A = the CSV's APIs, P = its group's annotation, O = intersecting groups'."""
    intersecting = not csv_apis.isdisjoint(other_apis)
    subset = csv_apis <= group_apis
    if subset:
        return "RemoveAPIs" if intersecting else "NoAPIConflict"
    return "APIConflict" if intersecting else "AddAPIs"


@frozen
class APIStep:
    """What R-API-6 does with a reconciliation result.

    ``verdict`` is the failure this sync writes (``None``: no phase change from the API
    step); ``new_annotation`` is the ``olm.providedAPIs`` value OLM writes first, without a
    phase change, when it differs from the current one; ``proceeds`` is false when the group
    rules will not let the CSV reach the phase machine once that write is made (RemoveAPIs:
    the following sync fails it with a conflict), so no recovery applies.
    """

    verdict: Verdict | None
    new_annotation: str | None = None
    proceeds: bool = True


def api_step(
    result: APIReconciliation,
    static: bool,
    current_reason: str | None,
    current_message: str | None,
    csv_apis: APISet,
    group_apis: APISet,
    raw_annotation: str | None,
) -> APIStep:
    """R-API-6, evaluated in OLM's order."""
    if static and result in ("AddAPIs", "RemoveAPIs"):
        if current_reason == CONFLICT_REASON:
            # R-API-7: a CSV already failed for a conflict stays as it is (static groups too).
            return APIStep(
                Verdict("Failed", CONFLICT_REASON, current_message or CONFLICT_MESSAGE, "R-API-6")
            )
        return APIStep(Verdict("Failed", STATIC_REASON, STATIC_MESSAGE, "R-API-6"))
    if result == "APIConflict":
        return APIStep(Verdict("Failed", CONFLICT_REASON, CONFLICT_MESSAGE, "R-API-6"))
    if result == "AddAPIs":
        new = format_provided_apis(group_apis | csv_apis)
        return APIStep(None, None if new == raw_annotation else new)
    if result == "RemoveAPIs":
        # Step 4: OLM strips every API of the CSV from its group and requeues the CSV without
        # a phase change, so this sync writes no verdict; the conflict failure comes on the
        # following sync (two steps), which the PendingAPIConflict finding tells.
        return APIStep(None, format_provided_apis(group_apis - csv_apis), proceeds=False)
    return APIStep(None)


def expected_group_apis(
    static: bool,
    group_apis: APISet,
    sibling_apis: APISet,
    added: APISet,
    removed: APISet,
) -> APISet:
    """What a group's ``olm.providedAPIs`` should hold given its member CSVs: the value it
    settles at once OLM has made the writes now pending (R-API-6, R-API-8). This is the
    report's ``expectedProvidedAPIs``.

    A static group is never changed. Otherwise pruning keeps the claims some non-copied CSV
    of the namespace (any phase) still provides (C-keys ∩ P), members that pass add theirs
    (AddAPIs), and members in a pending two-step conflict have all theirs stripped
    (RemoveAPIs). So a claim can be expected to go for two reasons, told by two findings:
    no CSV provides it (StaleProvidedAPIs, pruning) or a member's RemoveAPIs strips it
    (PendingAPIConflict).
    """
    if static:
        return group_apis
    return ((group_apis & sibling_apis) | added) - removed


def pruning_blockers(
    group_apis: APISet, siblings: Iterable[tuple[str, str | None, APISet]]
) -> tuple[str, ...]:
    """R-API-8: names of CSVs in phase ``""`` or ``Pending`` providing an API the group does not
    claim yet; while any exists OLM skips pruning for that pass."""
    return tuple(
        sorted(
            name
            for name, phase, apis in siblings
            if (phase or "") in ("", "Pending") and not apis <= group_apis
        )
    )


# -- R-CSV-O --------------------------------------------------------------------------------


def owned_crd_names(csv: Obj) -> frozenset[str]:
    csv_spec = spec(csv)
    return frozenset(
        str(e.get("name"))
        for e in _entries(csv_spec, "customresourcedefinitions", "owned")
        if e.get("name")
    )


class CrdOwners:
    """R-CSV-O over one namespace's non-copied CSVs (copies are invisible here): the owners
    of each CRD, grouped by replacement chain, so that a CSV's conflicts cost the owners
    outside its chain, not a walk of the chain per owner."""

    def __init__(self, owned: Mapping[str, frozenset[str]], index: ReplacementIndex) -> None:
        self._owned = owned
        self._index = index
        self._by_crd: dict[str, dict[str | None, list[str]]] = {}
        for name in sorted(owned):
            chain = index.chain_id(name)
            for crd in owned[name]:
                self._by_crd.setdefault(crd, {}).setdefault(chain, []).append(name)

    def conflicts(self, name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Other CSVs, outside ``name``'s replacement chain (its ancestors and descendants
        by ``spec.replaces``), owning a CRD it owns, as ``(csv name, shared CRD names)``
        sorted."""
        index = self._index
        mine = self._owned.get(name, frozenset())
        own = index.chain_id(name)
        found: dict[str, set[str]] = {}
        for crd in mine:
            for chain, owners in self._by_crd[crd].items():
                if chain == own and own not in index.forked_chains:
                    continue  # an unforked chain is the chain of each of its members
                for other in owners:
                    if chain != own or (other != name and not index.same_chain(name, other)):
                        found.setdefault(other, set()).add(crd)
        return tuple(sorted((other, tuple(sorted(crds))) for other, crds in found.items()))


def api_list(apis: Iterable[str]) -> tuple[str, ...]:
    """Sorted tuple for records (byte order, like OLM's formatting)."""
    return tuple(sorted(apis, key=lambda s: s.encode()))


# -- the API step of one CSV, and its group's claims ---------------------------------------


@frozen
class APIOutcome:
    """R-API-5/6 for one CSV: the reconciliation, the verdict it writes, what to tell, and
    whether the CSV goes on to its recovery checks (``proceeds``)."""

    reconciliation: APIReconciliation
    verdict: Verdict | None
    findings: tuple[Finding, ...]
    proceeds: bool


def csv_api_outcome(
    namespace: str,
    name: str,
    og: Obj,
    group_ref: str,
    provided: APISet,
    claimed: APISet,
    conflicts: tuple[Conflict, ...],
    status: tuple[str | None, str | None],
    static: bool,
) -> APIOutcome:
    """R-API-5/6 for a CSV its group rules let through. ``claimed`` are the CSV's APIs that
    an intersecting group claims; ``conflicts`` say which group claims which, where;
    ``status`` is the CSV's (reason, message)."""
    reason, message = status
    raw, group_apis = group_provided_apis(og)
    reconciliation = reconcile_api_intersection(provided, group_apis, claimed)
    step = api_step(reconciliation, static, reason, message, provided, group_apis, raw)
    verdict = step.verdict
    found: list[Finding] = []
    if reconciliation == "RemoveAPIs" and not static:
        found.append(
            findings.pending_api_conflict(
                namespace, name, group_ref, conflicts, reason == "InterOperatorGroupOwnerConflict"
            )
        )
    elif verdict is not None and verdict.reason == "InterOperatorGroupOwnerConflict" and conflicts:
        found.append(
            findings.api_conflict(namespace, name, group_ref, conflicts, reason == verdict.reason)
        )
    elif verdict is not None:
        platform = is_platform_owned(og)
        found.append(
            findings.verdict_finding(namespace, name, verdict, group_ref, platform=platform)
        )
    proceeds = verdict is None and step.proceeds
    if step.new_annotation is not None and proceeds:
        found.append(findings.pending_api_addition(namespace, name, group_ref, step.new_annotation))
    return APIOutcome(reconciliation, verdict, tuple(found), proceeds)


def group_api_findings(
    namespace: str,
    name: str,
    group_apis: APISet,
    static: bool,
    members: Iterable[tuple[str, str | None, APISet]],
    platform: bool = False,
) -> list[Finding]:
    """R-API-7/8 for one group: claims no non-copied CSV of the namespace provides, which
    OLM prunes (or, on a static group, never backs). ``members`` are the namespace's CSVs as
    (name, phase, provided APIs). Claims a member's RemoveAPIs strips are the
    PendingAPIConflict finding's story."""
    members = list(members)
    unbacked = group_apis - frozenset().union(*(apis for _, _, apis in members))
    if not unbacked:
        return []
    if static:
        return [findings.unbacked_static_apis(namespace, name, api_list(unbacked), platform)]
    blockers = pruning_blockers(group_apis, members)
    return [findings.stale_provided_apis(namespace, name, api_list(unbacked), blockers)]
