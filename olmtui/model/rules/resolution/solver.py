"""OLM's solver over the abstract problem of ``constraints``: which variables it selects, or a
minimal set of constraints that cannot hold together (R-RES-15..18).

A satisfiable problem (the common case) is solved on its plain CNF: one incremental python-sat
instance runs the preference search, the variables chosen so far being its assumptions. An
unsatisfiable one is encoded again with an activation literal (a *selector*) per applied
constraint: its clauses hold only while its selector is assumed true, so the selectors in
``get_core()`` name the constraints of a core, and the same instance shrinks it. Variables
are numbered 1..N in construction order (R-RES-13), so the encoding, and with it every
answer, is the same for the same input.

python-sat is imported where a problem is solved or encoded: most ``check`` runs resolve
nothing (no catalog content) and its import was ~20 ms of their start.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from olmtui.frozen import frozen
from olmtui.model.rules.resolution.constraints import (
    AppliedConstraint,
    AtMost,
    Conflict,
    Constraint,
    Dependency,
    Mandatory,
    Prohibited,
    Variable,
)

if TYPE_CHECKING:
    from pysat.solvers import Solver

#: MiniSat (GitHub version): incremental, assumptions and cores, deterministic for a given
#: clause order, and it keeps the phases it is given (MiniSat 2.2 and Glucose overwrite them
#: by phase saving), which spares the preference search most of its SAT calls.
_SOLVER = "minisat-gh"


@frozen
class Solution:
    """The selected variables (R-RES-17.5), in construction order (R-RES-13)."""

    selected: tuple[str, ...]


@frozen
class NotSatisfiable:
    """A minimal unsatisfiable set of applied constraints (R-RES-18): dropping any one of them
    leaves a satisfiable set. Ordered causes first (see ``cause_rank``), ties by text."""

    constraints: tuple[AppliedConstraint, ...]

    def olm_message(self) -> str:
        """The message in OLM's own format (R-RES-18): texts sorted in byte order. OLM lists
        the whole applied set of its solver's final conflict, which may be larger than this
        minimal one (R-RES-23)."""
        texts = sorted((c.constraint.text for c in self.constraints), key=str.encode)
        if not texts:
            return "constraints not satisfiable"
        return "constraints not satisfiable: " + ", ".join(texts)


def cause_rank(applied: AppliedConstraint) -> int:
    """Where a constraint stands in an explanation (R-RES-18): 0 the causes (Prohibited, a
    Dependency without candidates), 1 Conflict and AtMost, 2 Dependency, 3 Mandatory."""
    c = applied.constraint
    if isinstance(c, Prohibited) or (isinstance(c, Dependency) and not c.ids):
        return 0
    if isinstance(c, Conflict | AtMost):
        return 1
    if isinstance(c, Dependency):
        return 2
    return 3


def solve(variables: Sequence[Variable], anchors: Sequence[str]) -> Solution | NotSatisfiable:
    """Solve as OLM does (R-RES-16, R-RES-17), or explain why nothing fits (R-RES-18).

    ``variables`` in construction order (R-RES-13), ids unique; ``anchors`` the ids of the
    variables carrying a Mandatory constraint, in the order the caller chose (R-RES-17.4).
    An id named by a Dependency, Conflict or AtMost that is not among ``variables`` stands for
    a variable that can never be selected: it is false (it satisfies no Dependency and counts
    for no AtMost). OLM itself refuses such a problem; the builder never makes one.
    """
    from pysat.solvers import Solver

    problem = _Problem(variables)
    for anchor in anchors:
        if anchor not in problem.index:
            raise ValueError(f"anchor {anchor!r} is not a variable")
    with Solver(name=_SOLVER, bootstrap_with=problem.clauses) as sat:
        if sat.solve():
            return Solution(_smallest(problem, _preference_search(sat, problem, anchors)))
    with Solver(name=_SOLVER, bootstrap_with=problem.guarded()) as sat:
        sat.solve(assumptions=problem.selectors)
        return NotSatisfiable(_minimal_core(sat, problem, sat.get_core() or []))


class _Problem:
    """The CNF of the applied constraints; ``guarded()`` adds each one's selector literal.

    Selectors are numbered after every other variable, so the plain CNF (the satisfiable
    case, the common one) has no gaps and small models."""

    def __init__(self, variables: Sequence[Variable]) -> None:
        self.variables = tuple(variables)
        self.index: dict[str, int] = {}
        for number, variable in enumerate(self.variables, start=1):
            if variable.id in self.index:
                raise ValueError(f"variable {variable.id!r} given twice")
            self.index[variable.id] = number
        self.top = len(self.variables)
        self.clauses: list[list[int]] = []
        #: position in ``applied`` of each clause's constraint
        self.owner: list[int] = []
        self.applied: list[AppliedConstraint] = []
        #: variable number -> the known ids of each of its Dependency constraints, in order
        self.dependencies: dict[int, list[list[int]]] = {}
        self.mandatory: list[int] = []
        for number, variable in enumerate(self.variables, start=1):
            for constraint in variable.constraints:
                self._add(number, variable.id, constraint)
        self.selectors = [self.top + 1 + k for k in range(len(self.applied))]
        #: selector literal -> position in ``applied``
        self.by_selector = {s: k for k, s in enumerate(self.selectors)}

    def guarded(self) -> list[list[int]]:
        """Every clause with ``¬selector`` of its constraint added."""
        return [[-self.selectors[k], *c] for k, c in zip(self.owner, self.clauses, strict=True)]

    def known(self, ids: Iterable[str]) -> list[int]:
        """The numbers of the ids that are variables, in order, once each (unknown = false)."""
        return list(dict.fromkeys(self.index[i] for i in ids if i in self.index))

    def _add(self, x: int, name: str, constraint: Constraint) -> None:
        """The clauses of one applied constraint (R-RES-15)."""
        clauses = self._encode(x, constraint)
        self.owner.extend([len(self.applied)] * len(clauses))
        self.clauses.extend(clauses)
        self.applied.append(AppliedConstraint(name, constraint))

    def _encode(self, x: int, constraint: Constraint) -> list[list[int]]:
        """R-RES-15: Mandatory x; Prohibited ¬x; Dependency x -> ∨ids (empty: ¬x); Conflict
        ¬(x ∧ y); AtMost n of ids. AtMost is not conditional on x: OLM's constraint is a
        cardinality circuit over ids alone (solver/constraints.go), and the invariant variable
        it sits on is Mandatory anyway (R-RES-14)."""
        if isinstance(constraint, Mandatory):
            self.mandatory.append(x)
            return [[x]]
        if isinstance(constraint, Prohibited):
            return [[-x]]
        if isinstance(constraint, Dependency):
            ids = self.known(constraint.ids)
            self.dependencies.setdefault(x, []).append(ids)
            return [[-x, *ids]]
        if isinstance(constraint, Conflict):
            other = self.index.get(constraint.id)
            return [] if other is None else [[-x, -other]]
        ids = self.known(constraint.ids)
        if constraint.n >= len(ids):
            return []
        if constraint.n <= 0:
            return [[-i] for i in ids]
        from pysat.card import CardEnc

        encoding = _card(ids, constraint.n)
        cnf = CardEnc.atmost(lits=ids, bound=constraint.n, top_id=self.top, encoding=encoding)
        self.top = max(self.top, cnf.nv)
        return [list(c) for c in cnf.clauses]


def _card(ids: Sequence[int], n: int) -> int:
    """Pairwise for at most one of a handful of literals (no auxiliary variables), a
    sequential counter (linear size) otherwise."""
    from pysat.card import EncType

    return int(EncType.pairwise if n == 1 and len(ids) <= 6 else EncType.seqcounter)


def _preference_search(sat: Solver, problem: _Problem, anchors: Sequence[str]) -> list[int]:
    """R-RES-17 steps 1-2: breadth first over the choices, each time the first option that
    keeps the problem satisfiable with everything chosen so far.

    Runs on the plain CNF once it is known satisfiable: the assumptions are the choices. The
    last model found satisfies every choice made so far; an option already true in it is
    satisfiable without a SAT call. Phases favour the first option of every Dependency, which
    makes that the common case. Mandatory variables the caller left out of ``anchors``
    follow them, in construction order, so that every anchor is chosen."""
    firsts = {ids[0] for lists in problem.dependencies.values() for ids in lists if ids}
    sat.set_phases([n if n in firsts else -n for n in range(1, len(problem.variables) + 1)])
    sat.solve()
    model = sat.get_model() or []
    chosen: list[int] = []
    taken: set[int] = set()
    seeds = dict.fromkeys([*(problem.index[a] for a in anchors), *problem.mandatory])
    queue: deque[list[int]] = deque([n] for n in seeds)
    while queue:
        options = queue.popleft()
        if any(o in taken for o in options):
            continue
        for option in options:
            if model[option - 1] < 0:
                if not sat.solve(assumptions=[*chosen, option]):
                    continue
                model = sat.get_model() or []
            chosen.append(option)
            taken.add(option)
            queue.extend(ids for ids in problem.dependencies.get(option, []) if ids)
            break
    return chosen


def _smallest(problem: _Problem, chosen: list[int]) -> tuple[str, ...]:
    """R-RES-17 steps 4-5: the chosen set itself, in construction order.

    It is a model, hence the unique smallest one containing it (so no tie to break): every
    anchor is chosen; every Dependency of a chosen variable got an option chosen (the last
    model meets it with some option, which was therefore satisfiable); and Prohibited,
    Conflict and AtMost hold on any subset of a model, the chosen set being one."""
    taken = set(chosen)
    return tuple(v.id for n, v in enumerate(problem.variables, start=1) if n in taken)


def _minimal_core(sat: Solver, problem: _Problem, core: list[int]) -> tuple[AppliedConstraint, ...]:
    """R-RES-18: shrink the solver's core by deletion until every member is needed.

    Members are tried for removal in this order: non-empty Dependencies, then Conflict and
    AtMost, then the causes (Prohibited, empty Dependency), and the Mandatory anchors last, so
    that causes and anchors stay when an alternative core exists; within a kind, later text
    first, so the earlier one stays. When a removal keeps the set unsatisfiable, the new core
    replaces the working set (fewer calls) except that members of kinds tried later are kept:
    the set stays a superset of a core, and the preference above holds."""
    trial = {0: 2, 1: 1, 2: 0, 3: 3}
    work = set(core)

    def order(selector: int) -> tuple[int, bytes]:
        applied = problem.applied[problem.by_selector[selector]]
        return (trial[cause_rank(applied)], applied.constraint.text.encode())

    for selector in sorted(core, key=lambda s: (order(s)[0], _negated(order(s)[1]))):
        if selector not in work:
            continue
        rest = sorted(work - {selector})
        if sat.solve(assumptions=rest):
            continue
        later = {s for s in work if order(s)[0] > order(selector)[0]}
        work = (set(sat.get_core() or []) & work) | later
        work.discard(selector)
    members = [problem.applied[problem.by_selector[s]] for s in sorted(work)]
    return tuple(sorted(members, key=lambda a: (cause_rank(a), a.constraint.text.encode())))


def _negated(text: bytes) -> tuple[int, ...]:
    """A key sorting byte strings in descending order."""
    return (*(-b for b in text), 1)
