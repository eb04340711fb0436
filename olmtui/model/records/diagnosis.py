"""The diagnosis as plain records: which finding causes which, the incidents findings fold
into, and remedies as plans of steps that can be tried on a copy of the state.

A finding is named by :data:`FindingKey` (its code and its object), which is what the
report's ``cause`` and incident references hold. A remedy's steps carry the state changes
(:class:`Change`) the simulation applies before it says a remedy works; ``olmtui whatif``
takes the same changes from the command line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from olmtui.frozen import frozen
from olmtui.model.records.types import Finding, ObjectRef, Severity

#: ``(code, kind, namespace, name)`` of a finding: what ``cause`` and incidents refer to.
FindingKey = tuple[str, str, str, str]

#: What a remedy step asks a person to do (the report's ``steps[].action``).
StepAction = Literal[
    "delete", "create", "patch", "approve", "wait", "upgrade-cluster", "contact-author", "other"
]
#: The changes the simulation (and ``whatif``) can apply to a copy of the state.
ChangeAction = Literal["delete", "create", "patch", "approve"]
#: Whether a remedy was tried on a copy of the state before it was offered.
Verification = Literal["simulated", "not-simulated"]


def finding_key(finding: Finding) -> FindingKey:
    """The key the report's ``cause`` and ``incidents[]`` use for ``finding``."""
    return (finding.code, finding.kind, finding.namespace, finding.name)


@frozen
class Change:
    """One change to the state: delete ``target``, approve the InstallPlan ``target``,
    patch ``field`` (a dotted path; ``value`` ``""`` removes it) of ``target``, or create
    ``body`` (then ``target`` names it)."""

    action: ChangeAction
    target: ObjectRef
    field: str | None = None
    value: str | None = None
    body: Mapping[str, Any] | None = None


@frozen
class Step:
    """One step of a remedy, as a person reads it (``text``, the ``oc`` ``command`` shown,
    never run) and as the simulation applies it (``changes``; empty for steps it cannot
    apply: wait, upgrade the cluster, ask the bundle's author)."""

    action: StepAction
    text: str
    object: ObjectRef | None = None
    change: str | None = None
    command: str | None = None
    changes: tuple[Change, ...] = ()


@frozen
class Remedy:
    """A plan for one finding. ``verified`` is ``simulated`` only once the steps were
    applied to a copy of the observed state and OLM's next reactions (as olmtui models
    them) cleared the incident with no new error; ``outcome`` says what that run showed,
    ``missing`` what input a simulation lacked."""

    steps: tuple[Step, ...]
    verified: Verification = "not-simulated"
    outcome: str = ""
    missing: str | None = None


@frozen
class Incident:
    """One root cause and what follows from it. ``severity`` is the worst of its findings;
    ``affected`` names the blast radius (the objects its findings are about)."""

    id: str
    severity: Severity
    root: FindingKey
    consequences: tuple[FindingKey, ...]
    affected: tuple[ObjectRef, ...]
    summary: str
