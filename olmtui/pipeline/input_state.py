"""How complete the input of a session is (R-SRC-1, R-SRC-3, R-DOC-10): what may be missing
from it, and why, in one line per reason.

Two uses: the report's ``source.complete``/``incompleteBecause`` and line one of ``check``
and the header say it, and the findings resting on the absence of a kind read in part are
withheld (``model/rules/input/partial.py``). A snapshot is partial when an archive ended
early (any kind may be lost) or documents were skipped (the kind its must-gather path
names, e.g. ``.../operators.coreos.com/operatorgroups/x.yaml``, else any kind); a live
session while some stream has not listed its kind yet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from olmtui.model.rules.input.partial import COMPLETE, PartialInput
from olmtui.store import Unreadable

#: The kind a snapshot file holds, told from its path (``None``: the path does not say).
KindOfFile = Callable[[str], str | None]


def snapshot_partial(
    cut_short: bool, skipped: int, skipped_files: Sequence[str], kind_of: KindOfFile
) -> PartialInput:
    """What a snapshot load lost: an archive cut short loses any kind after the break; a
    skipped document, the kind its file holds (``kind_of``: from its must-gather path; any
    kind when the path does not say)."""
    reasons: list[str] = []
    if cut_short:
        reasons.append("the archive ends early: the files after the break are missing")
    files = list(dict.fromkeys(skipped_files))
    if cut_short:  # the break itself is counted as a skip, of the archive's last member
        skipped, files = skipped - 1, files[:-1]
    kinds: set[str] | None = set()
    if skipped:
        told = [kind_of(f) for f in files]
        known = sorted({k for k in told if k is not None})
        of = f" (of {', '.join(known)})" if known and None not in told else ""
        reasons.append(f"{skipped} unreadable document(s) skipped in {len(files)} file(s){of}")
        kinds = None if None in told else set(known)
    if cut_short:
        kinds = None
    if not reasons:
        return COMPLETE
    return PartialInput(tuple(reasons), None if kinds is None else frozenset(kinds))


def syncing_partial(syncing: Iterable[str]) -> PartialInput:
    """A live session whose streams ``syncing`` (stream names: a kind, or a kind with a
    note) have not listed their kind yet."""
    kinds = sorted({name.split(" ", 1)[0] for name in syncing})
    if not kinds:
        return COMPLETE
    return PartialInput((f"live sync not finished ({', '.join(kinds)})",), frozenset(kinds))


def scope_reasons(
    read_namespaces: frozenset[str] | None, unreadable: dict[str, Unreadable]
) -> list[str]:
    """The reasons the report gives for what was never read: a ``--namespace`` scope
    (R-DOC-10) and kinds not readable (R-SRC-3); their findings are already left out."""
    reasons: list[str] = []
    if read_namespaces is not None:
        reasons.append(f"--namespace scope: only {', '.join(sorted(read_namespaces))} read")
    if unreadable:
        scopes = ", ".join(why.scope for _, why in sorted(unreadable.items()))
        reasons.append(f"kinds not readable (403): {scopes}")
    return reasons
