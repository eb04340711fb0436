"""Versions as OLM v1's resolver reads them: a bundle's version and release (R-V1-11) and the
ClusterExtension's version range, a Masterminds/semver v3 constraint (R-V1-12).

Two libraries meet here and must not be confused. Bundle versions, the installed version and
``skipRange`` are blang/semver (strict: ``model/primitives/version.py`` reads them as blang does).
``spec.source.catalog.version`` is Masterminds' grammar, which differs from blang's: partial
versions and a leading ``v`` are accepted, ``~``/``^``/hyphen ranges exist, and a pre-release
version only satisfies an AND group that itself names a pre-release. Masterminds' grammar is
therefore reproduced here, regular expressions and quirks included, rather than approximated
with the blang range parser. Both read into the one version type: Masterminds orders versions
by SemVer precedence as blang does, a numeric identifier beyond uint64 counting as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.primitives import json_text
from olmtui.model.primitives.digits import UINT64_MAX, bounded
from olmtui.model.primitives.go_text import go_quote
from olmtui.model.primitives.version import (
    Identifiers,
    Version,
    identifiers_key,
    parse_version,
    parse_version_strict,
)

# --- R-V1-11: version and release of a bundle ------------------------------------------------


@frozen
class VersionRelease:
    """A bundle's version and its legacy release (R-V1-11); ``key`` orders them."""

    version: Version
    release: Identifiers = ()

    @property
    def key(self) -> tuple[Any, ...]:
        """Semver precedence first (build ignored); on a tie no release < any release, and
        releases compare like pre-release identifiers (R-V1-11)."""
        if not self.release:
            return (self.version.key, (0,))
        return (self.version.key, (1, identifiers_key(self.release)))


def legacy_version_release(text: str) -> VersionRelease:
    """R-V1-11: blang-parse ``text``; build metadata that reads as a release becomes the release
    (and is dropped from the version). Raises ``ValueError`` with blang's reason."""
    version = parse_version_strict(text)
    release = parse_version(f"0.0.0-{version.build}") if version.build else None
    if release is None:
        return VersionRelease(version)
    return VersionRelease(
        Version(version.major, version.minor, version.patch, version.prerelease), release.pre
    )


def package_version(properties: tuple[tuple[str, str], ...]) -> str | None:
    """The ``version`` of the first ``olm.package`` property (R-V1-11), as written (``""`` when
    it has none); ``None`` without such a property. An explicit ``release`` field is ignored
    (gate ``BundleReleaseSupport`` off)."""
    for kind, value in properties:
        if kind == "olm.package":
            try:
                data = json_text.loads(value)
            except ValueError:
                return ""
            version = data.get("version") if isinstance(data, dict) else None
            return version if isinstance(version, str) else ""
    return None


def bundle_version_release(version_text: str | None) -> VersionRelease | None:
    """R-V1-11: a bundle's version+release, or ``None`` when it has none or it does not parse
    (such a bundle matches no range, equals no installed bundle and sorts lowest)."""
    if version_text is None:
        return None
    try:
        return legacy_version_release(version_text)
    except ValueError:
        return None


# --- R-V1-12: Masterminds/semver v3 constraints ----------------------------------------------

#: Go's ``\s`` (RE2 Perl class): ASCII only, no vertical tab.
_S = r"[\t\n\f\r ]"
_OPS = r"=||!=|>|<|>=|=>|<=|=<|~|~>|\^"
_CV = (
    r"v?([0-9|x|X|\*]+)(\.[0-9|x|X|\*]+)?(\.[0-9|x|X|\*]+)?"
    r"(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?"
    r"(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?"
)
_CONSTRAINT = re.compile(rf"\A{_S}*({_OPS}){_S}*({_CV}){_S}*\Z")
_RANGE = re.compile(rf"{_S}*({_CV}){_S}+-{_S}+({_CV}){_S}*")
_FIND = re.compile(rf"({_OPS}){_S}*({_CV})")
#: Masterminds' ``validConstraintRegex`` (``^(\s*op\s*cv\s*)((?:\s+|,\s*)op\s*cv\s*)*$``),
#: rewritten to accept the same strings without Python's exponential backtracking: a version
#: is always followed by a space, a comma or the end, so it can be matched atomically, and
#: the spaces between two terms are taken once.
_VALID = re.compile(
    rf"\A{_S}*+(?:{_OPS}){_S}*(?>{_CV})"
    rf"(?:(?:{_S}++|{_S}*+,{_S}*+)(?:{_OPS}){_S}*(?>{_CV}))*{_S}*\Z"
)
_LOOSE = re.compile(
    r"\Av?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?"
    r"(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?"
    r"(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?\Z"
)
_ALLOWED = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789")


class ConstraintError(ValueError):
    """A version range Masterminds' ``NewConstraint`` rejects; the text is the library's."""


def compare(v: Version, o: Version) -> int:
    """Masterminds ``Compare``: SemVer precedence (R-SEM-6), metadata ignored; a pre-release
    identifier ``strconv.ParseUint`` cannot read is text
    (``model/primitives/version.identifiers``)."""
    return (v.key > o.key) - (v.key < o.key)


def _valid_pre(pre: str) -> bool:
    for part in pre.split("."):
        if not part or not set(part) <= _ALLOWED:
            return False
        if part.isdigit() and len(part) > 1 and part[0] == "0":
            return False
    return True


def _coerce(text: str) -> Version:
    """Masterminds ``NewVersion`` (``CoerceNewVersion`` on: leading zeros allowed)."""
    m = _LOOSE.match(text)
    if m is None:
        raise ValueError(text)
    major, minor, patch = (
        bounded(g, UINT64_MAX) for g in (m[1], (m[2] or ".0")[1:], (m[3] or ".0")[1:])
    )
    if major is None or minor is None or patch is None or (m[5] and not _valid_pre(m[5])):
        raise ValueError(text)
    return Version(major, minor, patch, m[5], m[8])


@frozen
class Term:
    """One parsed term: operator, its version and which parts were wildcards or missing."""

    op: str
    orig: str
    con: Version
    dirty: bool = False
    minor_dirty: bool = False
    patch_dirty: bool = False


def _is_x(text: str) -> bool:
    return text in ("x", "X", "*")


def _term(text: str) -> Term:
    """Masterminds ``parseConstraint``: missing or wildcard parts make the term "dirty"."""
    m = _CONSTRAINT.match(text)
    if m is None:
        raise ConstraintError(f"improper constraint: {go_quote(text)}")
    op, orig, major, minor, patch, pre = m[1], m[2], m[3], m[4], m[5], m[6] or ""
    flags = (False, False, False)
    ver = orig
    if _is_x(major):
        ver, flags = f"0.0.0{pre}", (True, False, False)
    elif not minor or _is_x(minor[1:]):
        ver, flags = f"{major}.0.0{pre}", (True, True, False)
    elif not patch or _is_x(patch[1:]):
        ver, flags = f"{major}{minor}.0{pre}", (True, False, True)
    try:
        con = _coerce(ver)
    except ValueError:
        raise ConstraintError("constraint parser error") from None
    return Term(op, orig, con, *flags)


def _not_equal(v: Version, c: Term) -> bool:
    con = c.con
    if c.dirty:
        if con.major != v.major:
            return True
        if con.minor != v.minor and not c.minor_dirty:
            return True
        if c.minor_dirty:
            return False
        if con.patch != v.patch and not c.patch_dirty:
            return True
        if c.patch_dirty:
            if v.pre or con.pre:
                return v.pre != con.pre
            return False
    return compare(v, con) != 0


def _greater(v: Version, c: Term) -> bool:
    if not c.dirty:
        return compare(v, c.con) == 1
    if v.major != c.con.major:
        return v.major > c.con.major
    if c.minor_dirty:
        return False
    if c.patch_dirty:
        return v.minor > c.con.minor
    return compare(v, c.con) == 1


def _less_equal(v: Version, c: Term) -> bool:
    if not c.dirty:
        return compare(v, c.con) <= 0
    if v.major > c.con.major:
        return False
    return not (v.major == c.con.major and v.minor > c.con.minor and not c.minor_dirty)


def _tilde(v: Version, c: Term) -> bool:
    con = c.con
    if compare(v, con) < 0:
        return False
    if (con.major, con.minor, con.patch) == (0, 0, 0) and not c.minor_dirty and not c.patch_dirty:
        return True
    if v.major != con.major:
        return False
    return not (v.minor != con.minor and not c.minor_dirty)


def _tilde_or_equal(v: Version, c: Term) -> bool:
    return _tilde(v, c) if c.dirty else compare(v, c.con) == 0


def _caret(v: Version, c: Term) -> bool:
    con = c.con
    if compare(v, con) < 0:
        return False
    if con.major > 0 or c.minor_dirty:
        return v.major == con.major
    if v.major > 0:
        return False
    if con.minor > 0 or c.patch_dirty:
        return v.minor == con.minor
    if v.minor > 0:
        return False
    return con.patch == v.patch


_OPERATORS: dict[str, Callable[[Version, Term], bool]] = {
    "": _tilde_or_equal,
    "=": _tilde_or_equal,
    "!=": _not_equal,
    ">": _greater,
    "<": lambda v, c: compare(v, c.con) < 0,
    ">=": lambda v, c: compare(v, c.con) >= 0,
    "=>": lambda v, c: compare(v, c.con) >= 0,
    "<=": _less_equal,
    "=<": _less_equal,
    "~": _tilde,
    "~>": _tilde,
    "^": _caret,
}


def _rewrite_hyphen_ranges(text: str) -> str:
    """``1.2 - 1.4.5`` -> ``>= 1.2, <= 1.4.5 `` (Masterminds ``rewriteRange``)."""
    out = text
    for m in _RANGE.finditer(text):
        out = out.replace(m[0], f">= {m[1]}, <= {m[11]} ", 1)
    return out


@frozen
class Constraint:
    """A parsed version range: OR of AND groups; ``check`` answers as Masterminds does."""

    text: str
    groups: tuple[tuple[Term, ...], ...]

    def check(self, version: Version) -> bool:
        """R-V1-12: a pre-release version passes an AND group only when one of that group's
        terms names a pre-release (``IncludePrerelease`` is off)."""
        for group in self.groups:
            include_pre = any(t.con.pre for t in group)
            if version.pre and not include_pre:
                continue
            if all(_OPERATORS[t.op](version, t) for t in group):
                return True
        return False

    def contains(self, version: Version) -> bool:
        """``check`` for a blang version, as operator-controller hands bundle versions over
        (``mmsemver.New`` of its parts: the same version)."""
        return self.check(version)


def parse_constraint(text: str) -> Constraint:
    """Masterminds ``NewConstraint`` (R-V1-12); raises ``ConstraintError`` with its text, e.g.
    ``improper constraint: "foobar"``."""
    groups: list[tuple[Term, ...]] = []
    for segment in _rewrite_hyphen_ranges(text).split("||"):
        if not _VALID.match(segment):
            raise ConstraintError(f"improper constraint: {go_quote(segment)}")
        groups.append(tuple(_term(m[0]) for m in _FIND.finditer(segment)))
    return Constraint(text, tuple(groups))
