"""The variables and constraints of OLM's resolver (R-RES-8, R-RES-15).

A variable stands for one bundle of one catalog channel, one installed CSV, one Subscription
or one invariant (one provider per API, one operator per package); its constraints say when it
may or must be selected. ``text`` is the constraint's wording exactly as OLM prints it in a
``ConstraintsNotSatisfiable`` message, so an explanation quotes OLM and a user can match it
against the Subscription's condition.
"""

from __future__ import annotations

from olmtui.frozen import frozen


@frozen
class Mandatory:
    """The variable is selected (R-RES-15): Subscriptions, unreferenced CSVs, invariants."""

    text: str


@frozen
class Prohibited:
    """The variable is not selected (R-RES-15): an invalid Subscription, a deprecated bundle."""

    text: str


@frozen
class Dependency:
    """Selecting the variable selects at least one of ``ids`` (R-RES-15), in OLM's order of
    preference; an empty ``ids`` makes the variable unselectable."""

    ids: tuple[str, ...]
    text: str


@frozen
class Conflict:
    """The variable and ``id`` are not both selected (R-RES-15): an upgrade and the CSV it
    replaces."""

    id: str
    text: str


@frozen
class AtMost:
    """At most ``n`` of ``ids`` are selected (R-RES-15): one provider of an API, one operator
    of a package (R-RES-14)."""

    n: int
    ids: tuple[str, ...]
    text: str


Constraint = Mandatory | Prohibited | Dependency | Conflict | AtMost


@frozen
class Variable:
    """One solver variable: its identifier (R-RES-8) and its constraints in the order OLM
    attaches them (R-RES-9, R-RES-10)."""

    id: str
    constraints: tuple[Constraint, ...]


@frozen
class AppliedConstraint:
    """A constraint together with the variable it is attached to: one clause group of the
    problem, the unit an explanation is made of (R-RES-18)."""

    variable: str
    constraint: Constraint
