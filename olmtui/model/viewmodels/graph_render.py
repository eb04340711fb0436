"""One channel's upgrade graph drawn as Mermaid or as plain text, for tickets and terminals.

Every upgrade edge of the channel is drawn, not only the ones OLM would take: ``replaces``
and ``skips`` to the entries they name, and ``olm.skipRange`` to every entry of the channel
whose version the range admits (R-UPG-2). Names outside the channel are left out of the
Mermaid drawing to keep it readable; the text form lists them. The channel head (R-UPG-1)
and the installed CSV are marked. Pure functions returning strings.

An edge runs from the older bundle to the one that upgrades it, and its label reads that way
("A replaced by B"): the label "replaces" on an arrow A --> B read as "A replaces B", the
opposite of OLM's meaning. A channel OLM cannot order (R-UPG-1) or ``opm validate`` rejects
(R-UPG-7) carries its errors; without a head, the drawing shows a "no channel head" node and
marks the entries competing to be the head, so that a ticket never shows a headless graph as
if it were fine.
"""

from __future__ import annotations

from olmtui.frozen import frozen
from olmtui.model.primitives.version import ZERO, Version
from olmtui.model.records.catalog import Channel, ChannelEntry, Package
from olmtui.model.records.types import UpgradeEdge
from olmtui.model.rules.upgrades.graph import (
    admitting_edge,
    channel_order,
    edges_unknown,
    skipped_names,
    validate_channel,
    version_of,
)

#: Mermaid entity codes for characters that would end or change a quoted label.
_MERMAID_ESCAPES = {
    "#": "#35;",
    '"': "#34;",
    "&": "#38;",
    "<": "#60;",
    ">": "#62;",
    "|": "#124;",
    "`": "#96;",
    "\\": "#92;",
}
PARTIAL_NOTE = (
    "from a PackageManifest: only the head and its skipRange are known, the entries' "
    "replaces and skips edges are not"
)
_ARROWS = {"replaces": "-->", "skips": "-.->", "skipRange": "-.->"}
#: Edge labels, read from the older bundle (source) to the newer one (target).
EDGE_LABELS = {"replaces": "replaced by", "skips": "skipped by", "skipRange": "in skipRange of"}
#: The Mermaid id of the node that stands for a missing channel head.
NO_HEAD = "nohead"


@frozen
class ChannelView:
    """What both renderings show: entries in display order, their marks and every edge."""

    package: str
    channel: str
    head: str | None
    entries: tuple[ChannelEntry, ...]
    versions: dict[str, str | None]
    skipped: frozenset[str]
    edges: tuple[UpgradeEdge, ...]
    #: Edges from names that are not entries of the channel (text form only).
    outside: tuple[UpgradeEdge, ...]
    #: OLM's resolver errors (R-UPG-1), then ``opm validate``'s (R-UPG-7).
    errors: tuple[str, ...]
    installed: str | None = None
    #: Without a head: the entries no other entry replaces or skips, each one a would-be head.
    competing_heads: tuple[str, ...] = ()
    #: Read from a PackageManifest: entries carry no replaces/skips edges (R-UPG-9).
    partial: bool = False
    #: The bundle OLM installs next for the Subscription drawn (R-RES-17, R-UPG-2), and why
    #: it is not the head (``None`` when it is, or when no Subscription is drawn).
    next: str | None = None
    next_because: str | None = None


def _display_order(channel: Channel, package: Package, order: list[str]) -> list[ChannelEntry]:
    """Channel order first (head first), then the rest newest first."""
    by_name = {e.name: e for e in channel.entries}
    first = [by_name[n] for n in order if n in by_name]
    ordered = set(order)
    rest = [e for e in channel.entries if e.name not in ordered]
    rest.sort(key=lambda e: (_version(package, e.name) or ZERO, e.name), reverse=True)
    return first + rest


def _version(package: Package, name: str) -> Version | None:
    bundle = package.bundles.get(name)
    return version_of(bundle.version if bundle else None)


def channel_view(
    channel: Channel,
    package: Package,
    installed: str | None = None,
    installed_version: str | None = None,
) -> ChannelView:
    """Collect the channel's entries, marks and edges. An installed CSV that is not an entry
    gets the edges of the entries that admit it (``installed_version`` absent: ``0.0.0``)."""
    order, errors = channel_order(channel)
    errors += [e for e in validate_channel(channel) if e not in errors]
    entries = _display_order(channel, package, order)
    names = {e.name for e in entries}
    versions = {e.name: _version(package, e.name) for e in entries}
    edges: list[UpgradeEdge] = []
    outside: list[UpgradeEdge] = []
    for e in entries:
        if e.replaces:
            (edges if e.replaces in names else outside).append(
                UpgradeEdge(e.replaces, e.name, "replaces")
            )
        for s in e.skips:
            (edges if s in names else outside).append(UpgradeEdge(s, e.name, "skips"))
        if e.skip_range is None:
            continue
        for other in entries:
            if (
                other.name != e.name
                and other.name not in (e.replaces, *e.skips)
                and admitting_edge(e, other.name, versions[other.name]) == "skipRange"
            ):
                edges.append(UpgradeEdge(other.name, e.name, "skipRange"))
    if installed and installed not in names:
        version = version_of(installed_version)
        for e in entries:
            via = admitting_edge(e, installed, version)
            if via:
                edges.append(UpgradeEdge(installed, e.name, via))
    bundle_versions = {
        n: (package.bundles[n].version if n in package.bundles else None) for n in names
    }
    if installed and installed not in names:
        bundle_versions[installed] = installed_version
    upgraded = {e.source for e in edges if e.via != "skipRange"}
    return ChannelView(
        package=package.name,
        channel=channel.name,
        head=order[0] if order else None,
        entries=tuple(entries),
        versions=bundle_versions,
        skipped=frozenset(skipped_names(channel)),
        edges=tuple(edges),
        outside=tuple(outside),
        errors=tuple(errors),
        installed=installed,
        partial=edges_unknown(channel),
        competing_heads=(() if order else tuple(e.name for e in entries if e.name not in upgraded)),
    )


def mermaid_text(text: str) -> str:
    """Escape text for a double-quoted Mermaid label (entity codes, one line)."""
    out = "".join(_MERMAID_ESCAPES.get(ch, ch) for ch in text)
    return " ".join(out.split())


def render_mermaid(view: ChannelView) -> str:
    """A ``flowchart BT``: older bundles below, each edge pointing from a bundle to one that
    upgrades it ("replaced by"). Solid = replaces, dashed = skips, dotted = skipRange. Errors
    are comments; a missing head is a node of its own, with the competing heads marked."""
    names = [e.name for e in view.entries]
    if view.installed and view.installed not in names:
        names.append(view.installed)
    ids = {name: f"n{i}" for i, name in enumerate(names)}
    lines = [
        "flowchart BT",
        f"  %% package {mermaid_text(view.package)}, channel {mermaid_text(view.channel)}",
        *([f"  %% {PARTIAL_NOTE}"] if view.partial else []),
        # a comment ends at the line end only: one line, no entity codes to read through
        *(f"  %% error: {' '.join(error.split())}" for error in view.errors),
        "  classDef head fill:#d8f5d0,stroke:#2e7d32,stroke-width:3px",
        "  classDef installed fill:#d6e4ff,stroke:#1f4fbf,stroke-width:3px",
        "  classDef skipped fill:#eeeeee,stroke:#8a8a8a,color:#555555",
        *(
            [
                "  classDef next fill:#fff3c4,stroke:#b26a00,stroke-width:3px",
                f"  %% next: {' '.join(_next_line(view).split())}",
            ]
            if view.next
            else []
        ),
    ]
    headless = view.head is None and bool(names)
    if headless:
        lines.append("  classDef nohead fill:#ffd6d6,stroke:#c62828,stroke-width:3px")
        lines.append("  classDef competing stroke:#c62828,stroke-width:3px")
        lines.append(f'  {NO_HEAD}["no channel head<br/>{mermaid_text(_no_head_reason(view))}"]')
    ranges = {e.name: e.skip_range for e in view.entries}
    for name in names:
        label = [view.versions.get(name) or "no version", name]
        if ranges.get(name):
            label.append(f"skipRange {ranges[name]}")
        if name == view.installed and name not in ranges:
            label.append("installed, not in this channel")
        body = "<br/>".join(mermaid_text(part) for part in label)
        lines.append(f'  {ids[name]}["{body}"]')
    styled: dict[str, list[str]] = {"skips": [], "skipRange": []}
    for i, edge in enumerate(view.edges):
        arrow = _ARROWS[edge.via]
        edge_label = EDGE_LABELS[edge.via]
        lines.append(f"  {ids[edge.source]} {arrow}|{edge_label}| {ids[edge.target]}")
        if edge.via in styled:
            styled[edge.via].append(str(i))
    for via, dashes in (("skips", "6 4"), ("skipRange", "2 3")):
        if styled[via]:
            lines.append(f"  linkStyle {','.join(styled[via])} stroke-dasharray:{dashes}")
    for cls, members in (
        ("skipped", [ids[n] for n in names if n in view.skipped]),
        ("head", [ids[view.head]] if view.head in ids else []),
        ("installed", [ids[view.installed]] if view.installed in ids else []),
        ("next", [ids[view.next]] if view.next in ids else []),
        ("nohead", [NO_HEAD] if headless else []),
        ("competing", [ids[n] for n in view.competing_heads]),
    ):
        if members:
            lines.append(f"  class {','.join(members)} {cls}")
    return "\n".join(lines) + "\n"


def _next_line(view: ChannelView) -> str:
    """What installs next, and why it is not the head when it is not."""
    because = f" (not the head: {view.next_because})" if view.next_because else ""
    return f"{view.next}{because}"


def _no_head_reason(view: ChannelView) -> str:
    """Why the channel has no head, short enough for a node label (the comments say more)."""
    if len(view.competing_heads) > 1:
        return f"{len(view.competing_heads)} entries compete for it (marked)"
    return view.errors[0] if view.errors else "OLM finds none"


def render_text(view: ChannelView) -> str:
    """One line per entry, head first: name, version, marks, and its incoming edges."""
    lines = [f"package {view.package}, channel {view.channel}, head {view.head or '(none)'}"]
    lines += [f"error: {e}" for e in view.errors]
    lines += [f"note: {PARTIAL_NOTE}"] if view.partial else []
    lines += [f"next: {_next_line(view)}"] if view.next else []
    incoming: dict[str, list[UpgradeEdge]] = {}
    for edge in (*view.edges, *view.outside):
        incoming.setdefault(edge.target, []).append(edge)
    in_channel = {e.name for e in view.entries}
    names = [e.name for e in view.entries]
    if view.installed and view.installed not in in_channel:
        names.append(view.installed)
    width = max((len(n) for n in names), default=0)
    vwidth = max((len(view.versions.get(n) or "-") for n in names), default=1)
    ranges = {e.name: e.skip_range for e in view.entries}
    for name in names:
        marks = [
            m
            for m, on in (
                ("[head]", name == view.head),
                ("[competing head]", name in view.competing_heads),
                ("[installed]", name == view.installed),
                ("[next]", name == view.next),
                ("[skipped]", name in view.skipped),
                ("[not in channel]", name not in in_channel),
            )
            if on
        ]
        parts = []
        for via in ("replaces", "skips", "skipRange"):
            sources = [
                s.source
                + (
                    ""
                    if s.source in in_channel or s.source == view.installed
                    else " (not in channel)"
                )
                for s in incoming.get(name, [])
                if s.via == via
            ]
            if not sources:
                continue
            label = f"skipRange {ranges[name]!r} admits" if via == "skipRange" else via
            parts.append(f"{label} {', '.join(sources)}")
        if ranges.get(name) and not any(p.startswith("skipRange") for p in parts):
            parts.append(f"skipRange {ranges[name]!r} admits nothing here")
        version = view.versions.get(name) or "-"
        line = " ".join([f"{name:<{width}}  {version:<{vwidth}}", *marks]).rstrip()
        if parts:
            line += "  <- " + "; ".join(parts)
        lines.append(line)
    return "\n".join(lines) + "\n"
