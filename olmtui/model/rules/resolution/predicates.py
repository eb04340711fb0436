"""Dependency predicates of a bundle (R-RES-11.2, R-RES-12).

Each dependency property of a bundle becomes one predicate over entries; its ``str()`` is
OLM's wording, which ends up in ``bundle X requires an operator <predicate>``. CEL rules
(``olm.constraint`` with ``cel``) are evaluated by ``cel.py`` where olmtui can decide them;
other rules raise ``NotEvaluated``. ``cel.py`` (its parser's patterns and a dozen node
classes) is imported only when a bundle holds such a rule: most clusters have none.
"""

from __future__ import annotations

from typing import Any

from olmtui.frozen import frozen
from olmtui.model.primitives.go_text import go_quote
from olmtui.model.primitives.semver_range import Range, RangeError, parse_range
from olmtui.model.rules.resolution.channel_order import ResolutionError
from olmtui.model.rules.resolution.entries import (
    Entry,
    decode,
    gvks_of,
    packages_of,
    parse_tolerant,
    props_of,
)


class NotEvaluated(Exception):
    """olmtui cannot decide this predicate offline (R-RES-23); the message is the reason."""


@frozen
class Gvk:
    group: str
    version: str
    kind: str

    def test(self, entry: Entry) -> bool:
        # R-RES-11.2: decoded as OLM's Go structs do, an absent field is "" (as the index)
        return (self.group, self.version, self.kind) in gvks_of(entry)

    def __str__(self) -> str:
        return (
            f"providing an API with group: {self.group}, version: {self.version}, kind: {self.kind}"
        )


@frozen
class Package:
    name: str

    def test(self, entry: Entry) -> bool:
        return entry.package == self.name or self.name in packages_of(entry)

    def __str__(self) -> str:
        return f"with package: {self.name}"


@frozen
class VersionInRange:
    range: Range
    text: str

    def test(self, entry: Entry) -> bool:
        for p in props_of(entry, "olm.package"):
            version = parse_tolerant(str(p.get("version") or ""))
            if version is not None and self.range.contains(version):
                return True
        return entry.version is not None and self.range.contains(entry.version)

    def __str__(self) -> str:
        return f"with version in range: {self.text}"


@frozen
class Label:
    label: str

    def test(self, entry: Entry) -> bool:
        return any(p.get("label") == self.label for p in props_of(entry, "olm.label"))

    def __str__(self) -> str:
        return f"with label: {self.label}"


@frozen
class Cel:
    rule: str
    message: str

    def test(self, entry: Entry) -> bool:
        """R-RES-11.2: the rule over the candidate's own properties. A catalog entry keeps
        only the types the resolver reads, an ``@existing`` entry all of them (R-RES-7.4)."""
        from olmtui.model.rules.resolution import cel  # imported where a bundle holds a rule

        values = entry.values
        if len(values) != len(entry.properties):
            values = decode(entry.properties)
        try:
            properties = cel.cel_properties(entry.properties, values)
            return cel.evaluate(self.rule, properties, complete=entry.catalog.virtual)
        except cel.Unsupported:
            raise NotEvaluated(f"CEL rule not supported offline: {self.rule}") from None  # R-RES-23

    def __str__(self) -> str:
        return f"with constraint: {go_quote(self.rule)} and message: {go_quote(self.message)}"


@frozen
class All:
    parts: tuple[Predicate, ...]

    def test(self, entry: Entry) -> bool:
        return all(p.test(entry) for p in self.parts)

    def __str__(self) -> str:
        return " and ".join(map(str, self.parts))


@frozen
class Any_:
    parts: tuple[Predicate, ...]

    def test(self, entry: Entry) -> bool:
        return any(p.test(entry) for p in self.parts)

    def __str__(self) -> str:
        return " or ".join(map(str, self.parts))


@frozen
class Not:
    parts: tuple[Predicate, ...]

    def test(self, entry: Entry) -> bool:
        return not any(p.test(entry) for p in self.parts)

    def __str__(self) -> str:
        return " and not ".join(map(str, self.parts))


Predicate = Gvk | Package | VersionInRange | Label | Cel | All | Any_ | Not


def _package(value: dict[str, Any]) -> Predicate:
    """``with package: P and with version in range: R`` (R-RES-12)."""
    text = str(value.get("versionRange") or "")
    try:
        version_range = parse_range(text)
    except RangeError as exc:
        raise ResolutionError(str(exc)) from exc
    return All((Package(str(value.get("packageName") or "")), VersionInRange(version_range, text)))


def _gvk(value: dict[str, Any]) -> Gvk:
    return Gvk(
        str(value.get("group") or ""), str(value.get("version") or ""), str(value.get("kind") or "")
    )


_CONSTRAINT_KEYS = ("failureMessage", "gvk", "package", "cel", "all", "any", "not")
#: operator-framework/api ``maxConstraintSize``: OLM refuses a longer olm.constraint value.
MAX_CONSTRAINT_SIZE = 2 << 16
#: How deep olmtui follows all/any/not: each level costs Python frames when the predicate is
#: built, tested and printed. OLM's own bound is the size above.
MAX_COMPOUND_DEPTH = 64


def _constraint(value: dict[str, Any], message: str, depth: int = 0) -> Predicate:
    """R-RES-12 ``olm.constraint``: exactly one of gvk/package/cel/all/any/not."""
    for key in value:
        if key not in _CONSTRAINT_KEYS:
            raise ResolutionError(f'json: unknown field "{key}"')
    if isinstance(value.get("gvk"), dict):
        return _gvk(value["gvk"])
    if isinstance(value.get("package"), dict):
        return _package(value["package"])
    if isinstance(value.get("cel"), dict):
        from olmtui.model.rules.resolution.cel import refusal  # where a bundle holds a rule

        rule = str(value["cel"].get("rule") or "")
        if (refused := refusal(rule)) is not None:  # R-RES-23: cel-go's own limits
            raise ResolutionError(f"convert olm.constraint to resolver predicate: {refused}")
        return Cel(rule, message)
    for key, combine in (("all", All), ("any", Any_), ("not", Not)):
        if isinstance(value.get(key), dict):
            if depth >= MAX_COMPOUND_DEPTH:
                raise NotEvaluated(f"olm.constraint nested deeper than {MAX_COMPOUND_DEPTH}")
            inner = value[key].get("constraints") or []
            parts = tuple(_constraint(c, message, depth + 1) for c in inner if isinstance(c, dict))
            return combine(parts)
    raise ResolutionError("constraint is empty")


def dependency_predicates(entry: Entry) -> list[Predicate]:
    """R-RES-12: one predicate per dependency property, in property order; a parse error
    raises ``ResolutionError`` (it aborts OLM's resolution)."""
    out: list[Predicate] = []
    # The JSON text of each value, as OLM measures it (an entry built with values only has
    # no text to measure).
    aligned = len(entry.properties) == len(entry.values)
    texts = [text for _, text in entry.properties] if aligned else [""] * len(entry.values)
    for (kind, value), text in zip(entry.values, texts, strict=True):
        if not isinstance(value, dict):
            continue
        if kind == "olm.gvk.required":
            out.append(_gvk(value))
        elif kind == "olm.package.required":
            out.append(_package(value))
        elif kind == "olm.label.required":
            out.append(Label(str(value.get("label") or "")))
        elif kind == "olm.constraint":
            if len(text.encode()) > MAX_CONSTRAINT_SIZE:
                raise ResolutionError(
                    "parse olm.constraint: olm.constraint value is greater than max "
                    f"constraint size {MAX_CONSTRAINT_SIZE} bytes"
                )
            out.append(_constraint(value, str(value.get("failureMessage") or "")))
    return out
