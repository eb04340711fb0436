"""OLM's log lines as the cache keeps them: each line's pod, container, time, level and text,
and an index by the object names it mentions, so that a finding's lines are found without a
scan (R-EVD-10).

A must-gather holds the logs of ``olm-operator``, ``catalog-operator``, ``packageserver``
(and OLM v1's ``operator-controller`` and ``catalogd``); a snapshot source reads them, bounded,
and hands each parsed line here. Nothing in here reads a file: the lines come parsed, with the
``(namespace, name)`` pairs they mention (namespace ``""`` when the line names none).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from olmtui.frozen import frozen


@frozen
class LogLine:
    """One log line: who wrote it, when (RFC 3339 text, "" when it does not say), at what
    level ("error", "warning", "info", "debug", or "" when it does not say), the text as
    written, and the objects it names as ``(namespace, name)`` (namespace "" when none)."""

    pod: str
    container: str
    time: str
    level: str
    text: str
    mentions: frozenset[tuple[str, str]] = frozenset()


@frozen
class LogFileRead:
    """One log file read: its name as shown, the lines kept, and what was cut ("" when the
    whole file was kept), e.g. "the first 3,214 lines (1.2 MB) not read"."""

    name: str
    lines: int
    cut: str = ""


@dataclass
class LogStore:
    """The log lines of a snapshot, in the order read, indexed by the names they mention."""

    lines: list[LogLine] = field(default_factory=list)
    files: list[LogFileRead] = field(default_factory=list)
    _by_name: dict[str, list[int]] = field(default_factory=dict)

    def add(self, lines: Iterable[LogLine], read: LogFileRead) -> None:
        """Keep the lines of one file read, and say what was read of it."""
        for line in lines:
            index = len(self.lines)
            self.lines.append(line)
            for name in {name for _, name in line.mentions}:
                self._by_name.setdefault(name, []).append(index)
        self.files.append(read)

    def __len__(self) -> int:
        return len(self.lines)

    def naming(self, namespace: str, name: str, limit: int) -> list[LogLine]:
        """The newest ``limit`` lines that name the object ``namespace/name``, oldest first.

        A line names it when it mentions ``name`` in ``namespace``, or ``name`` with no
        namespace (the line does not say which); a cluster-scoped object (``namespace``
        "") is named only by a line that mentions no namespace for it (R-EVD-10). Lines
        without a time keep their place in the file after the timed ones before them."""
        hits = [
            self.lines[i]
            for i in self._by_name.get(name, ())
            if (namespace, name) in self.lines[i].mentions or ("", name) in self.lines[i].mentions
        ]
        if limit <= 0:
            return []
        keys: list[tuple[str, int]] = []
        carried = ""  # a stack trace's next line is as old as the line it continues
        for at, line in enumerate(hits):
            carried = line.time or carried
            keys.append((carried, at))
        return [hits[at] for _, at in sorted(keys)[-limit:]]

    def cut(self) -> list[str]:
        """What was not read, one line per file cut: "pod/container current.log: ..."."""
        return [f"{f.name}: {f.cut}" for f in self.files if f.cut]
