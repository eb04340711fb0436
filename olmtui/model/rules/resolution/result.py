"""What resolving one namespace yields, in the words of the ``resolution[]`` report section.

``status`` is ``resolved``, ``unsatisfiable``, ``failed`` (OLM stops with another error,
R-RES-19) or ``not-evaluated`` (olmtui lacks an input, R-RES-22). The fields mirror the
report so that ``check``, ``explain`` and the dashboard say the same thing.
"""

from __future__ import annotations

from typing import Literal

from olmtui.frozen import frozen

ResolutionStatus = Literal["resolved", "unsatisfiable", "failed", "not-evaluated"]


@frozen
class ResolvedOperator:
    """One bundle of the solution (R-RES-20): ``catalog`` is ``"ns/name"`` or ``"@existing"``;
    ``reason`` is ``"Subscription ns/name"``, ``"dependency of NAME"`` or ``"existing"``."""

    name: str
    package: str
    channel: str
    catalog: str
    replaces: str | None
    reason: str


@frozen
class ExplainedConstraint:
    """One constraint of a minimal unsatisfiable set (R-RES-18): OLM's wording, the objects
    it names (``Subscription ns/S``, ``ClusterServiceVersion ns/X``,
    ``bundle X (catalog ns/name)``) and a one-line fix."""

    constraint: str
    objects: tuple[str, ...]
    fix: str


@frozen
class HeldBack:
    """A Subscription the resolver does not move to its first candidate (R-RES-17):
    ``preferred`` that candidate's bundle name, ``picked`` the bundle it installs instead
    (``None``: it stays on the installed CSV), ``because`` one line saying what rules the
    preferred ones out."""

    subscription: str
    preferred: str
    picked: str | None
    because: str


@frozen
class NamespaceResolution:
    namespace: str
    status: ResolutionStatus
    reason: str | None = None
    operators: tuple[ResolvedOperator, ...] = ()
    #: Names of the bundles the next InstallPlan would install, sorted.
    changes: tuple[str, ...] = ()
    #: Causes first (R-RES-18); empty unless ``unsatisfiable``.
    explanation: tuple[ExplainedConstraint, ...] = ()
    #: Subscriptions not moved to their first candidate, and why (R-RES-17); ``resolved`` only.
    held_back: tuple[HeldBack, ...] = ()
