"""An upgrade graph laid out like ``git log --graph``: one version per row, head first, and
vertical lanes for the edges that jump over rows.

A ``replaces`` edge between neighbouring rows is the channel's own order and needs no lane;
every other edge is grouped by (target, kind) into one lane that starts at the target (``▲``,
the upgrade lands there) and ticks at each source (``┼``, the last one ``┴``). Lanes are
packed greedily so that lanes which do not overlap share a column.
"""

from __future__ import annotations

from olmtui.frozen import frozen
from olmtui.model.records.types import UpgradeEdge
from olmtui.model.viewmodels.graph_render import ChannelView
from olmtui.ui import palette

#: Line glyph of each edge kind: solid, dashed, dotted (as the Mermaid rendering).
KIND_GLYPH = {"replaces": "│", "skips": "┆", "skipRange": "┊"}
KIND_STYLE = {"replaces": palette.OK, "skips": palette.WARNING, "skipRange": palette.UNKNOWN}


@frozen
class Lane:
    column: int
    target: str
    target_row: int
    via: str
    top: int
    bottom: int
    sources: frozenset[int]
    on_path: bool


@frozen
class Layout:
    names: tuple[str, ...]
    lanes: tuple[Lane, ...]
    width: int
    #: Incoming edges per row, for the text beside each version.
    incoming: dict[str, tuple[UpgradeEdge, ...]]


def row_names(view: ChannelView) -> list[str]:
    names = [e.name for e in view.entries]
    if view.installed and view.installed not in names:
        names.append(view.installed)
    return names


def layout(view: ChannelView, path_edges: frozenset[tuple[str, str]] = frozenset()) -> Layout:
    """Rows and lanes of one channel; ``path_edges`` are (source, target) pairs of the
    Subscription's path to the head (R-UPG-5), drawn highlighted."""
    names = row_names(view)
    row = {n: i for i, n in enumerate(names)}
    incoming: dict[str, list[UpgradeEdge]] = {}
    groups: dict[tuple[str, str], list[UpgradeEdge]] = {}
    for edge in (*view.edges, *view.outside):
        incoming.setdefault(edge.target, []).append(edge)
        if edge.source not in row or edge.target not in row:
            continue
        if edge.via == "replaces" and row[edge.source] == row[edge.target] + 1:
            continue
        groups.setdefault((edge.target, edge.via), []).append(edge)
    spans = []
    for (target, via), edges in groups.items():
        rows = {row[e.source] for e in edges}
        top, bottom = min(rows | {row[target]}), max(rows | {row[target]})
        on_path = any((e.source, e.target) in path_edges for e in edges)
        spans.append((top, bottom, target, via, frozenset(rows), on_path))
    spans.sort(key=lambda s: (s[0], s[1], s[2], s[3]))
    ends: list[int] = []  # per column: the last row used
    lanes = []
    for top, bottom, target, via, sources, on_path in spans:
        column = next((c for c, end in enumerate(ends) if end < top), len(ends))
        if column == len(ends):
            ends.append(bottom)
        else:
            ends[column] = bottom
        lanes.append(Lane(column, target, row[target], via, top, bottom, sources, on_path))
    return Layout(tuple(names), tuple(lanes), len(ends), {k: tuple(v) for k, v in incoming.items()})


def lane_cells(lay: Layout, index: int) -> list[tuple[str, str, bool]]:
    """``(glyph, kind, on_path)`` for each lane column at row ``index`` (blank: ``" "``)."""
    cells: list[tuple[str, str, bool]] = [(" ", "", False)] * lay.width
    for lane in lay.lanes:
        if not lane.top <= index <= lane.bottom:
            continue
        if index == lane.target_row:
            glyph = "▲"
        elif index in lane.sources:
            glyph = "┴" if index == lane.bottom else "┼"
        else:
            glyph = KIND_GLYPH[lane.via]
        cells[lane.column] = (glyph, lane.via, lane.on_path)
    return cells
