"""OLM's ``constraints not satisfiable: ...`` message taken apart into its clauses (R-SUB-7).

When the resolver cannot satisfy a namespace it writes one message on every Subscription of
the namespace: the constraints of the solver's conflict, each from a fixed template, sorted and
joined by ``", "``. The clauses name Subscriptions, installed CSVs (``@existing/ns//name``)
and catalog bundles (``catalog/catalog-ns/channel/name``). Reading them back tells which
objects stand in the way. Some templates hold ``", "`` themselves (lists of ids), so the
splitter rejoins list pieces; any text no template matches is kept verbatim as an
``unknown`` clause, and nothing here raises on odd input.
"""

from __future__ import annotations

import re

from olmtui.frozen import frozen
from olmtui.model.rules.resolution.entries import EXISTING

PREFIX = "constraints not satisfiable"

_ID = r"[^\s,]+"
_BARE_ID = re.compile(_ID)
_LIST_PIECE = re.compile(rf"{_ID}(?: or {_ID})?")
_OPEN_LIST = re.compile(r"requires at least one of ")
_LIST_CLOSED = re.compile(rf" or {_ID}$")

#: (kind, template) in the order tried; the groups feed :class:`Clause`. R-SUB-7: the
#: resolver's fixed texts (subscription, bundle and invariant constraints).
_TEMPLATES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("subscription-exists", re.compile(rf"subscription ({_ID}) exists")),
    ("subscription-requires", re.compile(rf"subscription ({_ID}) requires (.+)")),
    (
        "subscription-no-candidates",
        re.compile(rf"no operators found matching the criteria of subscription ({_ID})"),
    ),
    (
        "no-operators",
        re.compile(rf"no operators found (.+) referenced by subscription ({_ID})"),
    ),
    (
        "orphan-csv",
        re.compile(
            rf"clusterserviceversion ({_ID}) exists and is not referenced by a subscription"
        ),
    ),
    ("deprecated", re.compile(rf"bundle ({_ID}) is deprecated")),
    ("bundle-requires", re.compile(rf"bundle ({_ID}) requires an operator (.+)")),
    (
        "no-candidates",
        re.compile(rf"({_ID}) has a dependency without any candidates to satisfy it()"),
    ),
    ("same-package", re.compile(rf"(.+) originate from package ({_ID})")),
    ("same-api", re.compile(r"(.+) provide (\S+ \(\S+\))")),
    ("only-one", re.compile(r"there can be only one (?:provider of|operator from package) (.+)")),
    ("conflicts", re.compile(rf"({_ID}) conflicts with ({_ID})")),
    ("requires", re.compile(rf"({_ID}) requires at least one of (.+)")),
)


@frozen
class BundleId:
    """A solver variable id (``catalog/catalog-namespace/channel/name``)."""

    catalog: str
    catalog_namespace: str
    channel: str
    name: str

    @property
    def installed(self) -> bool:
        """An installed CSV (the ``@existing`` virtual catalog), not a catalog bundle."""
        return self.catalog == EXISTING


@frozen
class Clause:
    """One constraint of the message. ``subject`` is what the clause is about (a Subscription
    name, a CSV name or a variable id), ``ids`` the ids it lists, ``detail`` the rest (a
    package, an API ``Kind (group/version)``, a dependency's predicate, a catalog phrase)."""

    kind: str
    text: str
    subject: str = ""
    ids: tuple[str, ...] = ()
    detail: str = ""


def parse_id(text: str) -> BundleId | None:
    """The parts of a variable id, or None for anything else (a Subscription name)."""
    parts = text.split("/")
    if len(parts) != 4 or not parts[0] or not parts[3]:
        return None
    return BundleId(*parts)


def describe_id(text: str) -> str:
    """A variable id in words: ``installed CSV X`` or ``bundle X (catalog ns/name, channel
    c)``; anything else as written."""
    parsed = parse_id(text)
    if parsed is None:
        return text
    if parsed.installed:
        return f"installed CSV {parsed.name}"
    channel = f", channel {parsed.channel}" if parsed.channel else ""
    return f"bundle {parsed.name} (catalog {parsed.catalog_namespace}/{parsed.catalog}{channel})"


def id_list(text: str) -> tuple[str, ...]:
    """``a``, ``a or b``, ``a, b and c``, ``at least one of a, b or c`` as ids."""
    text = text.removeprefix("at least one of ")
    head, sep, last = text.rpartition(" and ")
    if not sep:
        head, sep, last = text.rpartition(" or ")
    items = [*head.split(", "), last] if sep else [text]
    return tuple(i.strip() for i in items if i.strip())


def split_clauses(message: str) -> list[str]:
    """The clause texts of a NotSatisfiable message, list pieces joined back."""
    body = message.strip()
    if body.lower().startswith(PREFIX):
        body = body[len(PREFIX) :].lstrip(":").strip()
    clauses: list[str] = []
    pending: list[str] = []
    for token in body.split(", ") if body else ():
        last = clauses[-1] if clauses and not pending else ""
        if (
            _OPEN_LIST.search(last)
            and not _LIST_CLOSED.search(last)
            and _LIST_PIECE.fullmatch(token)
        ):
            clauses[-1] = f"{last}, {token}"  # the next id of "at least one of a, b or c"
        elif _BARE_ID.fullmatch(token):
            pending.append(token)  # "a, b and c provide ...": wait for the rest
        else:
            clauses.append(", ".join([*pending, token]))
            pending = []
    if pending:
        clauses.append(", ".join(pending))
    return clauses


def parse_clause(text: str) -> Clause:
    """One clause text matched against OLM's templates; ``unknown`` when none fits."""
    for kind, template in _TEMPLATES:
        found = template.fullmatch(text)
        if found is None:
            continue
        groups = found.groups()
        if kind in ("same-package", "same-api"):
            return Clause(kind, text, ids=id_list(groups[0]), detail=groups[1])
        if kind in ("subscription-requires", "requires"):
            return Clause(kind, text, subject=groups[0], ids=id_list(groups[1]))
        if kind == "no-operators":
            return Clause(kind, text, subject=groups[1], detail=groups[0])
        if kind == "conflicts":
            return Clause(kind, text, subject=groups[0], ids=(groups[1],))
        return Clause(kind, text, subject=groups[0], detail=groups[1] if len(groups) > 1 else "")
    return Clause("unknown", text)


def parse_message(message: str) -> list[Clause]:
    """Every clause of one ``ResolutionFailed`` message, in the message's order."""
    return [parse_clause(text) for text in split_clauses(message)]


_CATALOG_PHRASE = re.compile(rf"from catalog ({_ID}) in namespace ({_ID})")


def catalog_of(clause: Clause) -> tuple[str, str] | None:
    """(namespace, name) of the CatalogSource a ``no operators found from catalog N in
    namespace M`` clause names."""
    found = _CATALOG_PHRASE.fullmatch(clause.detail) if clause.kind == "no-operators" else None
    return (found.group(2), found.group(1)) if found else None
