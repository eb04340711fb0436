"""A trial's outcome (the findings and resolutions before and after, what OLM did next),
and a remedy judged from it: ``simulated``, refused, or not simulated for what is missing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field, replace

from olmtui.frozen import frozen
from olmtui.model.incremental.health import finding_order
from olmtui.model.records.diagnosis import Change, FindingKey, Remedy, finding_key
from olmtui.model.records.types import Finding
from olmtui.model.rules.resolution.result import NamespaceResolution


@frozen
class Outcome:
    """One trial: the findings and resolutions before and after, what OLM did next in
    words, and what the simulation could not model (``missing``, empty when it modelled
    all it needed)."""

    changes: tuple[Change, ...]
    before: tuple[Finding, ...]
    after: tuple[Finding, ...]
    before_resolution: tuple[NamespaceResolution, ...]
    after_resolution: tuple[NamespaceResolution, ...]
    next: tuple[str, ...]
    missing: tuple[str, ...]
    #: Findings before whose key no finding after holds, and the reverse.
    cleared: tuple[Finding, ...] = ()
    new: tuple[Finding, ...] = ()
    #: The keys of ``before`` (shared by every trial of one state).
    before_keys: frozenset[FindingKey] = field(default=frozenset(), repr=False, compare=False)

    def finding(self, key: FindingKey) -> Finding | None:
        """The finding after that ``key`` names, if any."""
        if key not in self.before_keys:
            return next((f for f in self.new if finding_key(f) == key), None)
        if any(finding_key(f) == key for f in self.cleared):
            return None
        return next((f for f in self.after if finding_key(f) == key), None)


def diff(
    before: dict[int, Finding], after: Sequence[Finding]
) -> tuple[tuple[Finding, ...], tuple[Finding, ...], int]:
    """``(cleared, new)`` by key. The index keeps the findings of unchanged subjects as the
    same objects, so only those not shared by identity are keyed: a trial costs what it
    changed, not a pass keying every finding of the cluster. The third value counts the
    findings before not shared by identity."""
    after_by_id = dict(zip(map(id, after), after, strict=True))
    gone = [before[i] for i in before.keys() - after_by_id.keys()]
    came = [after_by_id[i] for i in after_by_id.keys() - before.keys()]
    gone_keys = {finding_key(f) for f in gone}
    came_keys = {finding_key(f) for f in came}
    cleared = sorted((f for f in gone if finding_key(f) not in came_keys), key=finding_order)
    new = sorted((f for f in came if finding_key(f) not in gone_keys), key=finding_order)
    return tuple(cleared), tuple(new), len(gone)


def refused(remedy: Remedy) -> bool:
    """Whether a trial ran and showed the remedy fails (not only that it could not run)."""
    return remedy.verified == "not-simulated" and remedy.missing is None and bool(remedy.outcome)


def judged(
    remedy: Remedy, outcome: Outcome, clears: set[FindingKey], assumed: tuple[str, ...] = ()
) -> Remedy:
    did = "; ".join([*(f"taken as done: {text.rstrip('.')}" for text in assumed), *outcome.next])
    if outcome.missing:  # a reaction not modelled: neither proof nor refusal
        return replace(
            remedy,
            verified="not-simulated",
            outcome=did,
            missing="; ".join(outcome.missing),
        )
    stays = [f for k in sorted(clears) if (f := outcome.finding(k)) is not None]
    new_errors = [f for f in outcome.new if f.severity == "error"]
    installing = _installing(outcome)
    if stays and not new_errors and all(f.namespace in installing for f in stays):
        # what follows from the cause stays, where OLM now installs something new: what the
        # install does to it (a Failed CSV replaced by fail-forward, R-UPG-8) is past the
        # next step olmtui models, neither proof nor refusal
        return replace(
            remedy,
            verified="not-simulated",
            outcome=did,
            missing="; ".join(
                f"what installing {', '.join(installing[f.namespace])} does to {f.code} on "
                f"{what(f)}: olmtui models the InstallPlan OLM makes, not its install"
                for f in stays
            ),
        )
    if stays or new_errors:
        why = [f"{f.code} stays on {what(f)}" for f in stays]
        why += [f"new error {f.code} on {what(f)}: {f.message}" for f in new_errors]
        return replace(
            remedy,
            verified="not-simulated",
            outcome="; ".join(filter(None, [did, *why])),
            missing=None,
        )
    gone = sorted({code for code, *_ in clears if code})
    cleared = f"{', '.join(gone)} clear{'s' if len(gone) == 1 else ''}" if gone else ""
    return replace(
        remedy,
        verified="simulated",
        outcome="; ".join(filter(None, [did, cleared])),
        missing=None,
    )


def what(finding: Finding) -> str:
    where = f"{finding.namespace}/" if finding.namespace else ""
    return f"{finding.kind} {where}{finding.name}"


def _installing(outcome: Outcome) -> dict[str, tuple[str, ...]]:
    """namespace -> the bundles OLM's resolution installs after the trial, in the namespaces
    the trial changed: there OLM goes on to an install the trial does not follow."""
    changed = {c.target.namespace for c in outcome.changes}
    return {
        r.namespace: tuple(r.changes)
        for r in outcome.after_resolution
        if r.status == "resolved" and r.changes and r.namespace in changed
    }
