"""Tab completion of the ``:`` line: a view name or command first, then the argument of
the commands that take one (``ctx`` a kubeconfig context, ``ns`` and ``res`` a namespace).

Pure: the caller hands in the words it knows; candidates are whole lines, so the prompt
can show one as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: Commands of the ``:`` line that are not views.
QUIT_WORDS = ("q", "quit", "q!")
CONTEXT_WORDS = ("ctx", "context")
#: ``:res [NAMESPACE]``: a namespace's resolution (what OLM installs next, or why not).
RESOLUTION_WORDS = ("res", "resolution")
COMMANDS = ("quit", "ctx", "res")
#: Words whose argument is a namespace (``:ns NAME``, ``:res NAME``).
NAMESPACE_WORDS = ("ns", "namespace", "namespaces", *RESOLUTION_WORDS)


def candidates(
    line: str,
    words: Sequence[str],
    namespaces: Iterable[str] = (),
    contexts: Iterable[str] = (),
) -> list[str]:
    """Every completion of ``line``, as whole lines, sorted (case-insensitive prefixes)."""
    head, sep, arg = line.lstrip().lstrip(":").partition(" ")
    if not sep:
        pool = set(words) | set(COMMANDS)
        return sorted(w for w in pool if w.startswith(head.lower()))
    head = head.lower()
    names = contexts if head in CONTEXT_WORDS else namespaces if head in NAMESPACE_WORDS else ()
    arg = arg.strip()
    return [f"{head} {n}" for n in sorted(set(names)) if n.lower().startswith(arg.lower())]


def extend(line: str, found: Sequence[str]) -> str:
    """What Tab first turns ``line`` into: the one candidate, or the longest prefix the
    candidates share when it says more than the line (else the line as it is)."""
    if len(found) == 1:
        return found[0]
    prefix = _shared_prefix(found)
    return prefix if len(prefix) > len(line.strip().lstrip(":")) else line


def _shared_prefix(words: Sequence[str]) -> str:
    if not words:
        return ""
    low, high = min(words), max(words)  # the two most different share the least
    size = next((i for i, (a, b) in enumerate(zip(low, high, strict=False)) if a != b), None)
    return low if size is None else low[:size]
