"""Version ranges exactly as OLM v0 reads them (blang/semver v4.0.0), over the one version
type (``model/primitives/version.py``).

OLM parses ``olm.skipRange`` and ``olm.package.required`` ranges with blang's ``ParseRange``,
quirks included, and a skipRange that fails to parse is silently ignored by the resolver
(R-SEM-7) while catalog validation rejects it (R-UPG-7). A tolerant npm-style parser would
therefore give different upgrade edges than the cluster does, so this module reproduces the
Go behaviour step by step: tokenizing (R-SEM-2), OR groups (R-SEM-3), operators (R-SEM-4),
wildcard expansion (R-SEM-5) and comparison (R-SEM-6).

One deliberate difference: blang accepts ``a || || b`` (an empty OR group) and then panics when
a version reaches the empty group; here that range is a ``RangeError``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from olmtui.frozen import frozen
from olmtui.model.primitives.digits import INT64_MAX, bounded
from olmtui.model.primitives.go_text import go_quote
from olmtui.model.primitives.version import Version, parse_version, parse_version_strict

_INT64_MIN = -(2**63)
#: Go's ``unicode.IsSpace``, which ``strings.TrimSpace`` uses (differs from ``str.isspace``).
_GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_GO_ATOI = re.compile(r"[+-]?[0-9]+\Z")


class RangeError(ValueError):
    """A range that blang's ``ParseRange`` rejects; the message says why."""


# --- R-SEM-2: tokenizing -------------------------------------------------------------------


def _split_and_trim(text: str) -> list[str]:
    """Split on spaces, except a space right after ``>``, ``<`` or ``=`` (R-SEM-2).

    blang measures tokens in bytes and drops every token shorter than two bytes, so a lone
    ``!`` vanishes and ``! 1.2.3`` turns into the equality ``1.2.3``.
    """
    tokens: list[str] = []
    start = 0
    last_char = ""
    for i, ch in enumerate(text):
        if ch == " " and last_char not in (">", "<", "="):
            if len(text[start:i].encode("utf-8", "surrogatepass")) >= 2:
                tokens.append(text[start:i])
            start = i + 1
        elif ch != " ":
            last_char = ch
    if len(text[start:].encode("utf-8", "surrogatepass")) >= 2:
        tokens.append(text[start:])
    return [t.replace(" ", "") for t in tokens]


def _split_or(tokens: list[str]) -> list[list[str]]:
    """R-SEM-3: standalone ``||`` tokens separate OR groups; first or last is an error."""
    groups: list[list[str]] = []
    start = 0
    for i, token in enumerate(tokens):
        if token == "||":
            if i == 0:
                raise RangeError("First element in range is '||'")
            groups.append(tokens[start:i])
            start = i + 1
    if start == len(tokens):
        raise RangeError("Last element in range is '||'")
    groups.append(tokens[start:])
    if any(not group for group in groups):
        raise RangeError("Empty group between '||' (blang/semver panics when it evaluates one)")
    return groups


def _split_operator(token: str) -> tuple[str, str]:
    """Operator = everything before the first decimal digit (Go ``unicode.IsDigit``)."""
    for i, ch in enumerate(token):
        if ch.isdecimal():
            return token[:i].strip(_GO_SPACE), token[i:]
    raise RangeError(f"Could not get version from string: {go_quote(token)}")


# --- R-SEM-5: wildcards ---------------------------------------------------------------------


def _go_atoi(text: str) -> int | None:
    if not _GO_ATOI.match(text):
        return None
    # int64 holds -2**63, one more than INT64_MAX: a negative number is bounded by that.
    magnitude = bounded(text.lstrip("+-"), INT64_MAX + text.startswith("-"))
    if magnitude is None:
        return None
    return -magnitude if text.startswith("-") else magnitude


def _go_itoa_plus_one(value: int) -> str:
    """``strconv.Itoa(i + 1)`` with Go's int64 wrap-around."""
    return str(_INT64_MIN if value == INT64_MAX else value + 1)


def _increment(flat: str, index: int) -> str:
    """blang's incrementMajor/MinorVersion; a non-number yields the empty string."""
    parts = flat.split(".")
    number = _go_atoi(parts[index])
    if number is None:
        return ""
    parts[index] = _go_itoa_plus_one(number)
    return ".".join(parts)


def _flatten_wildcard(version: str) -> str:
    """``1.2.x`` -> ``1.2.0``, ``1.x`` -> ``1.0.0``, and the quirk ``1.x.x`` -> ``1.0.0``."""
    flat = version.replace(".x.x", ".x", 1).replace(".x", ".0", 1)
    return flat + ".0" if len(flat.split(".")) == 2 else flat


def _expand_wildcard(token: str) -> list[str]:
    """Rewrite a token containing the letter ``x`` (R-SEM-5).

    Detection is by the letter alone, so a pre-release such as ``1.0.0-next`` goes through
    here too: the wildcard kind is then "none", and every operator that needs a bumped
    version gets an empty one, which fails to parse later. Unknown operators fall out of the
    expansion with no operator at all, i.e. as an equality.
    """
    op, version = _split_operator(token)
    parts = version.split(".")
    kind = {3: "patch", 2: "minor"}.get(len(parts)) if parts[-1] == "x" else None
    flat = _flatten_wildcard(version)
    bump = False
    extra: list[str] = []
    result_op = ""
    if op == ">":
        result_op, bump = ">=", True
    elif op == ">=":
        result_op = ">="
    elif op == "<":
        result_op = "<"
    elif op == "<=":
        result_op, bump = "<", True
    elif op in ("", "=", "=="):
        extra, result_op, bump = [">=" + flat], "<", True
    elif op in ("!=", "!"):
        # Copied from blang: "<low >=high" ANDed, so `!=1.2.x` matches nothing.
        extra, result_op, bump = ["<" + flat], ">=", True
    if not bump:
        result_version = flat
    elif kind == "patch":
        result_version = _increment(flat, 1)
    elif kind == "minor":
        result_version = _increment(flat, 0)
    else:
        result_version = ""
    return [*extra, result_op + result_version]


# --- R-SEM-4: operators ---------------------------------------------------------------------

_COMPARATORS: dict[str, tuple[str, Callable[[int], bool]]] = {
    "": ("=", lambda c: c == 0),
    "=": ("=", lambda c: c == 0),
    "==": ("=", lambda c: c == 0),
    "!": ("!=", lambda c: c != 0),
    "!=": ("!=", lambda c: c != 0),
    ">": (">", lambda c: c > 0),
    ">=": (">=", lambda c: c >= 0),
    "<": ("<", lambda c: c < 0),
    "<=": ("<=", lambda c: c <= 0),
}


@frozen
class Comparator:
    """One term after wildcard expansion: ``op`` is one of ``= != > >= < <=``."""

    op: str
    version: Version

    def __call__(self, version: Version) -> bool:
        a, b = version.key, self.version.key
        return _COMPARATORS[self.op][1]((a > b) - (a < b))

    def __str__(self) -> str:
        return f"{self.op}{self.version}"


def _comparator(token: str) -> Comparator:
    op, version_text = _split_operator(token)
    if op not in _COMPARATORS:
        raise RangeError(
            f"Could not parse Range {go_quote(token)}: Could not parse comparator "
            f"{go_quote(op)} in {go_quote(op + version_text)}"
        )
    try:
        version = parse_version_strict(version_text)
    except ValueError as exc:
        raise RangeError(
            f"Could not parse Range {go_quote(token)}: Could not parse version "
            f"{go_quote(version_text)} in {go_quote(op + version_text)}: {exc}"
        ) from None
    return Comparator(_COMPARATORS[op][0], version)


@frozen
class Range:
    """A parsed range: OR of AND groups of comparators. Call it with a version."""

    text: str
    groups: tuple[tuple[Comparator, ...], ...]

    def contains(self, version: Version | str) -> bool:
        """Whether ``version`` is in the range. Pre-releases are not excluded (R-SEM-6); a
        string that is not strict semver is in no range."""
        if isinstance(version, str):
            parsed = parse_version(version)
            if parsed is None:
                return False
            version = parsed
        return any(all(c(version) for c in group) for group in self.groups)

    __call__ = contains

    def __str__(self) -> str:
        """The expanded form, e.g. ``1.2.x`` -> ``>=1.2.0 <1.3.0``."""
        return " || ".join(" ".join(str(c) for c in group) for group in self.groups)


def parse_range(text: str) -> Range:
    """blang/semver v4.0.0 ``ParseRange`` (R-SEM-2..5); raises ``RangeError``."""
    groups = _split_or(_split_and_trim(text))
    expanded = [
        [part for token in group for part in (_expand_wildcard(token) if "x" in token else [token])]
        for group in groups
    ]
    return Range(text, tuple(tuple(_comparator(t) for t in group) for group in expanded))
