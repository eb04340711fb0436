"""The one version type: a ``semver.Version`` read as OLM's Go libraries read it.

SemVer 2.0 precedence is what blang/semver (OLM v0: CSV and bundle versions, ``olm.skipRange``,
``olm.package.required``) and Masterminds/semver (OLM v1: the ClusterExtension's version range)
both implement, so one type serves both range grammars (``semver_range`` for blang's,
``v1.versions`` for Masterminds'). Only reading text is OLM's own: blang's ``Parse`` is strict,
bounds each number to uint64 and says why it refuses (R-SEM-1), so it is done here rather than
by ``semver.Version.parse`` (which reads numbers of any size, gives one reason for all, and
from semver 3.1 hands the reading to an optional native backend when one is installed).

Precedence is kept as a sort key computed once per version (R-SEM-6): versions are compared
on hot paths (catalog order, candidates, ranges), where ``semver.Version.compare`` would split
and reread the pre-release at every comparison. The key orders as ``compare`` does (a test
keeps them equal).
"""

from __future__ import annotations

import re
from typing import Any

import semver

from olmtui.model.primitives.digits import UINT64_MAX, bounded
from olmtui.model.primitives.go_text import go_quote

#: Pre-release or release identifiers: ``int`` for numeric ones, ``str`` for alphanumeric ones.
Identifiers = tuple[int | str, ...]

#: blang's grammar for a version it accepts, numbers not yet bounded (R-SEM-1).
_STRICT = re.compile(
    r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-((?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
    r"(?:\.(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?\Z",
    re.ASCII,
)
_ALPHANUM = re.compile(r"[0-9A-Za-z-]+\Z", re.ASCII)


#: Fewer digits than this always fit in uint64 (whose largest value has 20).
_SHORT = 20


def _identifier(part: str) -> int | str:
    if not (part.isdigit() and part.isascii()):
        return part
    if len(part) < _SHORT:
        return int(part)
    value = bounded(part, UINT64_MAX)
    return part if value is None else value


def identifiers(text: str | None) -> Identifiers:
    """Dot-separated identifiers as precedence reads them: a run of ASCII digits that fits
    uint64 is a number, anything else text (Masterminds compares a longer run as text; blang
    refuses it when parsing)."""
    return tuple(map(_identifier, text.split("."))) if text else ()


def identifiers_key(ids: Identifiers) -> tuple[tuple[int, int, str], ...]:
    """R-SEM-6 over identifiers: numbers rank below text, numbers by value, text by bytes;
    when the shared identifiers tie, the longer list wins."""
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in ids)


class Version(semver.Version):
    """A version: ``semver.Version`` with its pre-release identifiers (``pre``) and its
    precedence (``key``, R-SEM-6) read once. Build metadata is kept for display and ignored
    by every comparison."""

    __slots__ = ("key", "pre")

    pre: Identifiers
    #: Sort key for R-SEM-6: a release outranks its pre-releases.
    key: tuple[Any, ...]

    def __init__(
        self,
        major: int,
        minor: int = 0,
        patch: int = 0,
        prerelease: str | None = None,
        build: str | None = None,
    ) -> None:
        super().__init__(major, minor, patch, prerelease or None, build or None)
        self.pre = identifiers(prerelease)
        if self.pre:
            self.key = (major, minor, patch, 0, identifiers_key(self.pre))
        else:
            self.key = (major, minor, patch, 1, ())

    def __lt__(self, other: object) -> bool:
        return self.key < other.key if isinstance(other, Version) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self.key <= other.key if isinstance(other, Version) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self.key > other.key if isinstance(other, Version) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self.key >= other.key if isinstance(other, Version) else NotImplemented

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self.key == other.key

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.key)


ZERO = Version(0, 0, 0)


def _number(text: str, what: str) -> int:
    """One numeric part: digits only, no leading zero, fits in uint64 (R-SEM-1)."""
    if not (text.isdigit() and text.isascii()) and text:
        raise ValueError(f"Invalid character(s) found in {what} number {go_quote(text)}")
    if len(text) > 1 and text[0] == "0":
        raise ValueError(
            f"{what.capitalize()} number must not contain leading zeroes {go_quote(text)}"
        )
    value = bounded(text, UINT64_MAX) if text else None
    if value is None:
        raise ValueError(f"strconv.ParseUint: parsing {go_quote(text)}: invalid syntax")
    return value


def _prerelease(text: str) -> None:
    if not text:
        raise ValueError("Prerelease is empty")
    if text.isdigit() and text.isascii():
        if len(text) > 1 and text[0] == "0":
            raise ValueError(
                f"Numeric PreRelease version must not contain leading zeroes {go_quote(text)}"
            )
        if bounded(text, UINT64_MAX) is None:
            raise ValueError(f"strconv.ParseUint: parsing {go_quote(text)}: value out of range")
        return
    if not _ALPHANUM.match(text):
        raise ValueError(f"Invalid character(s) found in prerelease {go_quote(text)}")


def _refusal(text: str) -> ValueError:
    """Why blang's ``Parse`` refuses ``text``, in blang's words, step by step as it checks."""
    if not text:
        return ValueError("Version string empty")
    parts = text.split(".", 2)
    if len(parts) != 3:
        return ValueError("No Major.Minor.Patch elements found")
    try:
        _number(parts[0], "major")
        _number(parts[1], "minor")
        patch_text, build, pre = parts[2], [], []
        if "+" in patch_text:
            patch_text, _, build_text = patch_text.partition("+")
            build = build_text.split(".")
        if "-" in patch_text:
            patch_text, _, pre_text = patch_text.partition("-")
            pre = pre_text.split(".")
        _number(patch_text, "patch")
        for p in pre:
            _prerelease(p)
        for b in build:
            if not b:
                raise ValueError("Build meta data is empty")
            if not _ALPHANUM.match(b):
                raise ValueError(f"Invalid character(s) found in build meta data {go_quote(b)}")
    except ValueError as exc:
        return exc
    raise AssertionError(f"blang accepts {text!r}, the grammar does not")  # pragma: no cover


def parse_version_strict(text: str) -> Version:
    """blang ``Parse``: the version in ``text``, or ``ValueError`` with blang's own reason, for
    callers that quote it (OLM v1's installed-version error, R-V1-15)."""
    m = _STRICT.match(text)
    if m is None:
        raise _refusal(text)
    major, minor, patch, pre, build = m.groups()
    longest = max(len(major), len(minor), len(patch))
    if longest >= _SHORT and any(bounded(n, UINT64_MAX) is None for n in (major, minor, patch)):
        raise _refusal(text)  # a number beyond uint64
    version = Version(int(major), int(minor), int(patch), pre, build)
    if pre and any(isinstance(p, str) and p.isdigit() for p in version.pre):
        raise _refusal(text)  # a numeric identifier beyond uint64
    return version


def parse_version(text: str) -> Version | None:
    """The strict semver version in ``text`` (no ``v``, no leading zeros, three parts), or
    ``None`` (R-SEM-1)."""
    try:
        return parse_version_strict(text)
    except ValueError:
        return None


def version_key(text: str | None) -> tuple[Any, ...]:
    """Sort key for version strings; unparsable ones sort as ``0.0.0`` (as the packageserver
    sorts PackageManifest entries, R-SEM-6)."""
    return (parse_version(text or "") or ZERO).key
