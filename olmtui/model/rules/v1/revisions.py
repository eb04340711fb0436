"""A ClusterExtension's revisions as the dashboard reads them (R-V1-24): each ClusterObjectSet
(or ClusterExtensionRevision, its older name) with its number, lifecycle state, phases,
collision protection and conditions, and which of them are active.

operator-controller rolls an upgrade out as a new revision beside the old one: both stay
``Active`` until the new one has rolled out, then the old one is archived. Two active
revisions are therefore an upgrade in progress, not a fault; a revision past
``progressDeadlineMinutes`` is (R-V1-25). A revision belongs to the ClusterExtension its
owner reference (or the ``olm.operatorframework.io/owner-*`` labels) names; the extension's
``status.activeRevisions[]`` names the active ones even when the revision objects cannot be
read, and then their conditions come from there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from olmtui.frozen import frozen
from olmtui.kinds import CLUSTER_EXTENSION, CLUSTER_OBJECT_SET
from olmtui.model.rules.v1.extensions import Condition, conditions_by_type
from olmtui.objects import Obj, meta, spec, status

ACTIVE = "Active"
ARCHIVED = "Archived"
#: The labels operator-controller puts on the revisions it creates (docs/draft/concepts/
#: clusterobjectsets.md, "Relationship with ClusterExtension").
OWNER_KIND_LABEL = "olm.operatorframework.io/owner-kind"
OWNER_NAME_LABEL = "olm.operatorframework.io/owner-name"
#: The reasons of R-V1-25..27 (api/v1/common_types.go, clusterobjectset_types.go).
DEADLINE_EXCEEDED = "ProgressDeadlineExceeded"
PROBE_FAILURE = "ProbeFailure"
#: clusterobjectset_controller.go: ``revision object collisions in phase %d\n<objects>``.
_COLLISIONS = re.compile(r"revision object collisions in phase (\d+)")
#: clusterobjectset_controller.go: ``Object <Kind>.<group/version> <ns>/<name>: <messages>``.
_PROBE_LINE = re.compile(r"^Object ([^.\s]+)\.\S* (\S*)/(\S+?):", re.MULTILINE)


@frozen
class PhaseObject:
    """One object of a phase: its identity, or the Secret holding its manifest (``ref``)."""

    kind: str
    namespace: str
    name: str
    ref: str = ""

    @property
    def label(self) -> str:
        if self.ref:
            return f"manifest in Secret {self.ref}"
        where = f"{self.namespace}/" if self.namespace else ""
        return f"{self.kind} {where}{self.name}"


@frozen
class Phase:
    """One phase (R-V1-24): applied in order, objects of the next only once these pass their
    probes. ``collision_protection`` is the phase's own, ``""`` when it inherits the spec's."""

    name: str
    collision_protection: str
    objects: tuple[PhaseObject, ...]


@frozen
class Revision:
    """One revision of a ClusterExtension. ``number`` and ``lifecycle_state`` are ``None``
    and ``""`` when only the extension's ``status.activeRevisions[]`` names it (the object
    was not read); ``conditions`` are then that entry's."""

    kind: str
    name: str
    number: int | None
    lifecycle_state: str
    active: bool
    phases: tuple[Phase, ...]
    collision_protection: str
    progress_deadline_minutes: int | None
    conditions: Mapping[str, Condition]

    def condition(self, kind: str) -> Condition | None:
        return self.conditions.get(kind)

    @property
    def deadline_exceeded(self) -> bool:
        """R-V1-25: Progressing=False/ProgressDeadlineExceeded, the one real "stuck"."""
        progressing = self.conditions.get("Progressing")
        return (
            progressing is not None
            and progressing.status == "False"
            and progressing.reason == DEADLINE_EXCEEDED
        )

    @property
    def probe_failure(self) -> str | None:
        """R-V1-26: the message of Available=False/ProbeFailure, or ``None``."""
        available = self.conditions.get("Available")
        if available is None or available.status != "False" or available.reason != PROBE_FAILURE:
            return None
        return available.message

    @property
    def collision(self) -> str | None:
        """R-V1-27: the Progressing message that reports objects another owner holds."""
        progressing = self.conditions.get("Progressing")
        if progressing is None or _COLLISIONS.search(progressing.message) is None:
            return None
        return progressing.message

    @property
    def current_phase(self) -> str | None:
        """The phase the conditions say the rollout stands in: the one a collision names by
        index, or the one holding the first object a probe failure names; ``None`` when the
        conditions name none (the conditions do not say which phase a rollout is at)."""
        collision = self.collision
        if collision is not None:
            match = _COLLISIONS.search(collision)
            index = int(match.group(1)) if match else -1
            return self.phases[index].name if 0 <= index < len(self.phases) else None
        failure = self.probe_failure
        if failure is None:
            return None
        for kind, namespace, name in _PROBE_LINE.findall(failure):
            for phase in self.phases:
                if any(
                    (o.kind, o.namespace, o.name) == (kind, namespace, name) for o in phase.objects
                ):
                    return phase.name
        return None


@frozen
class ExtensionRevisions:
    """The revisions of one ClusterExtension, by number (unnumbered last)."""

    extension: str
    revisions: tuple[Revision, ...]

    @property
    def active(self) -> tuple[Revision, ...]:
        return tuple(r for r in self.revisions if r.active)

    @property
    def label(self) -> str:
        """The REVISIONS column: ``2 active (rolling out)``, ``1 active, 3 archived``, ``""``
        when there is none (no revisions API, or an extension not yet installed)."""
        if not self.revisions:
            return ""
        active = self.active
        words = f"{len(active)} active"
        archived = len(self.revisions) - len(active)
        if archived:
            words += f", {archived} archived"
        if any(r.deadline_exceeded for r in active):
            return f"{words} (deadline exceeded)"
        if len(active) > 1:
            return f"{words} (rolling out)"
        return words


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def owner_of(obj: Obj) -> str | None:
    """The ClusterExtension a revision belongs to (R-V1-24): its owner reference, else the
    owner labels operator-controller sets."""
    obj_meta = meta(obj)
    for owner in obj_meta.get("ownerReferences") or ():
        if isinstance(owner, Mapping) and owner.get("kind") == CLUSTER_EXTENSION:
            name = _text(owner.get("name"))
            if name:
                return name
    labels = obj_meta.get("labels") or {}
    if labels.get(OWNER_KIND_LABEL) == CLUSTER_EXTENSION and _text(labels.get(OWNER_NAME_LABEL)):
        return str(labels[OWNER_NAME_LABEL])
    return None


def _phase_object(entry: Mapping[str, object]) -> PhaseObject:
    inline = entry.get("object")
    if isinstance(inline, Mapping):
        inline_meta = inline.get("metadata")
        inline_meta = inline_meta if isinstance(inline_meta, Mapping) else {}
        return PhaseObject(
            _text(inline.get("kind")),
            _text(inline_meta.get("namespace")),
            _text(inline_meta.get("name")),
        )
    ref = entry.get("ref")
    ref = ref if isinstance(ref, Mapping) else {}
    where = f"{_text(ref.get('namespace'))}/" if _text(ref.get("namespace")) else ""
    return PhaseObject(
        "", "", "", ref=f"{where}{_text(ref.get('name'))} key {_text(ref.get('key'))}"
    )


def _phases(revision_spec: Mapping[str, object]) -> tuple[Phase, ...]:
    phases = revision_spec.get("phases")
    if not isinstance(phases, list):
        return ()
    return tuple(
        Phase(
            _text(p.get("name")),
            _text(p.get("collisionProtection")),
            tuple(_phase_object(o) for o in p.get("objects") or () if isinstance(o, Mapping)),
        )
        for p in phases
        if isinstance(p, Mapping)
    )


def decode_revision(obj: Obj, listed: bool = False) -> Revision:
    """The record of one revision object; ``listed`` when its extension's
    ``status.activeRevisions[]`` names it (active when its lifecycle state does not say)."""
    revision_spec = spec(obj)
    state = _text(revision_spec.get("lifecycleState"))
    return Revision(
        kind=_text(obj.get("kind")) or CLUSTER_OBJECT_SET,
        name=_text(meta(obj).get("name")),
        number=_int(revision_spec.get("revision")),
        lifecycle_state=state,
        active=state == ACTIVE if state else listed,
        phases=_phases(revision_spec),
        collision_protection=_text(revision_spec.get("collisionProtection")),
        progress_deadline_minutes=_int(revision_spec.get("progressDeadlineMinutes")),
        conditions=conditions_by_type(obj),
    )


def _listed(extension: Obj) -> dict[str, Obj]:
    """``status.activeRevisions[]`` by name, each as a revision-shaped object."""
    found: dict[str, Obj] = {}
    for entry in status(extension).get("activeRevisions") or ():
        if isinstance(entry, Mapping) and _text(entry.get("name")):
            found[entry["name"]] = {
                "metadata": {"name": entry["name"]},
                "status": {"conditions": entry.get("conditions") or []},
            }
    return found


def _order(revision: Revision) -> tuple[int, int, str]:
    return (revision.number is None, revision.number or 0, revision.name)


def extension_revisions(extension: Obj, revision_objs: Iterable[Obj]) -> ExtensionRevisions:
    """The revisions of one ClusterExtension (R-V1-24): the revision objects it owns, and
    those its ``status.activeRevisions[]`` names that were not read."""
    name = _text(meta(extension).get("name"))
    listed = _listed(extension)
    found: dict[str, Revision] = {}
    for obj in revision_objs:
        revision_name = _text(meta(obj).get("name"))
        if owner_of(obj) == name or revision_name in listed:
            found[revision_name] = decode_revision(obj, revision_name in listed)
    for revision_name, entry in listed.items():
        if revision_name not in found:
            found[revision_name] = decode_revision(entry, listed=True)
    return ExtensionRevisions(name, tuple(sorted(found.values(), key=_order)))


def revisions_by_extension(
    extensions: Iterable[Obj], revision_objs: Iterable[Obj]
) -> dict[str, ExtensionRevisions]:
    """Every ClusterExtension's revisions, by extension name."""
    revision_objs = list(revision_objs)
    return {_text(meta(e).get("name")): extension_revisions(e, revision_objs) for e in extensions}


def progress_deadline_minutes(extension: Obj) -> int | None:
    """R-V1-2: ``spec.progressDeadlineMinutes`` (10..720), ``None`` when unset."""
    return _int(spec(extension).get("progressDeadlineMinutes"))


def has_revision_fields(extension: Obj) -> bool:
    """Whether a ClusterExtension says anything of revisions (R-V1-24, R-V1-25): a progress
    deadline, active revisions, or a Progressing past the deadline."""
    if progress_deadline_minutes(extension) is not None or status(extension).get("activeRevisions"):
        return True
    progressing = conditions_by_type(extension).get("Progressing")
    return progressing is not None and progressing.reason == DEADLINE_EXCEEDED
