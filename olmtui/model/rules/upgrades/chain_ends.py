"""The ends of ``replaces`` chains walked from every head of a channel (R-UPG-1, R-RES-11.1).

OLM orders a channel by walking ``replaces`` from each head (an entry nothing replaces or
skips); with several heads it names each chain by its first and last kept entries, and a walk
that comes back on itself is a cycle. Walked again from each head, a channel of thousands of
heads over one long chain costs heads x length (3,000 of each: 7 s a walk); here the
rest of the walk from each entry is summed up once and shared by every walk through it.
"""

from __future__ import annotations

from collections.abc import Container, Mapping

from olmtui.frozen import frozen


@frozen
class Ends:
    """A walk summed up: whether it loops, and (if not) its kept entries' ends and count."""

    loops: bool = False
    first: str | None = None
    last: str | None = None
    #: How many entries the walk keeps, counted up to 2 (all the chain's text needs).
    kept: int = 0

    def text(self) -> str:
        """OLM's text for the chain: ``[]``, its one entry, or ``first...last``."""
        if self.first is None:
            return "[]"
        return self.first if self.kept == 1 else f"{self.first}...{self.last}"


class ChainEnds:
    """``following`` maps an entry's name to the name its walk goes to next; entries in
    ``skipped`` are walked through but not kept."""

    def __init__(self, following: Mapping[str, str], skipped: Container[str]) -> None:
        self._following = following
        self._skipped = skipped
        self._rest: dict[str, Ends] = {}

    def walk(self, head: str, following: str | None) -> Ends:
        """The walk from ``head``, whose next entry is ``following`` (a head has its own
        ``replaces``, which may differ from that of another entry of its name)."""
        return self._with(head, self._from(following))

    def _with(self, name: str, rest: Ends) -> Ends:
        if rest.loops or name in self._skipped:
            return rest
        return Ends(False, name, name if rest.last is None else rest.last, min(rest.kept + 1, 2))

    def _from(self, start: str | None) -> Ends:
        path: list[str] = []
        on_path: set[str] = set()
        current = start
        rest = Ends()
        while current is not None:
            if current in self._rest:
                rest = self._rest[current]
                break
            if current in on_path:
                rest = Ends(loops=True)  # every entry on the path leads into the loop
                break
            on_path.add(current)
            path.append(current)
            current = self._following.get(current)
        for name in reversed(path):
            rest = self._rest[name] = self._with(name, rest)
        return rest
