"""Mermaid and text renderings of a channel graph, golden-tested on a small hand-made channel."""

from __future__ import annotations

from data_paths import DATA

from olmtui.model.records.catalog import Bundle, Channel, ChannelEntry, Package
from olmtui.model.viewmodels.graph_render import (
    channel_view,
    mermaid_text,
    render_mermaid,
    render_text,
)

E = ChannelEntry
ENTRIES = (
    E("op.v1.3.0", "op.v1.2.0", skip_range=">=1.0.0 <1.2.0"),
    E("op.v1.2.0", "op.v1.1.0", skips=("op.v1.1.5", "op.v0.1.0")),
    E("op.v1.1.5", "op.v1.1.0"),
    E("op.v1.1.0", "op.v1.0.0"),
    E("op.v1.0.0", "op.v0.9.0"),
)
PACKAGE = Package(
    "op",
    "stable",
    {"stable": Channel("op", "stable", ENTRIES)},
    {e.name: Bundle(e.name, "op", e.name.partition(".v")[2]) for e in ENTRIES},
)

GOLDEN_MERMAID = """\
flowchart BT
  %% package op, channel stable
  classDef head fill:#d8f5d0,stroke:#2e7d32,stroke-width:3px
  classDef installed fill:#d6e4ff,stroke:#1f4fbf,stroke-width:3px
  classDef skipped fill:#eeeeee,stroke:#8a8a8a,color:#555555
  n0["1.3.0<br/>op.v1.3.0<br/>skipRange #62;=1.0.0 #60;1.2.0"]
  n1["1.2.0<br/>op.v1.2.0"]
  n2["1.1.0<br/>op.v1.1.0"]
  n3["1.0.0<br/>op.v1.0.0"]
  n4["1.1.5<br/>op.v1.1.5"]
  n1 -->|replaced by| n0
  n2 -.->|in skipRange of| n0
  n3 -.->|in skipRange of| n0
  n4 -.->|in skipRange of| n0
  n2 -->|replaced by| n1
  n4 -.->|skipped by| n1
  n3 -->|replaced by| n2
  n2 -->|replaced by| n4
  linkStyle 5 stroke-dasharray:6 4
  linkStyle 1,2,3 stroke-dasharray:2 3
  class n4 skipped
  class n0 head
  class n2 installed
"""

GOLDEN_TEXT = """\
package op, channel stable, head op.v1.3.0
op.v1.3.0  1.3.0 [head]  <- replaces op.v1.2.0; skipRange '>=1.0.0 <1.2.0' admits op.v1.1.0, \
op.v1.0.0, op.v1.1.5
op.v1.2.0  1.2.0  <- replaces op.v1.1.0; skips op.v1.1.5, op.v0.1.0 (not in channel)
op.v1.1.0  1.1.0 [installed]  <- replaces op.v1.0.0
op.v1.0.0  1.0.0  <- replaces op.v0.9.0 (not in channel)
op.v1.1.5  1.1.5 [skipped]  <- replaces op.v1.1.0
"""


def view(installed: str | None = "op.v1.1.0", version: str | None = None):
    return channel_view(PACKAGE.channels["stable"], PACKAGE, installed, version)


def test_mermaid_golden_head_installed_skipped_and_edge_styles() -> None:
    assert render_mermaid(view()) == GOLDEN_MERMAID


def test_text_golden_one_line_per_entry_head_first() -> None:
    assert render_text(view()) == GOLDEN_TEXT


def test_r_upg_2_skip_range_edges_go_to_every_admitted_entry_of_the_channel() -> None:
    edges = {(e.source, e.target) for e in view().edges if e.via == "skipRange"}
    # 1.2.0 is outside ">=1.0.0 <1.2.0"; op.v1.3.0 never admits itself.
    assert edges == {
        ("op.v1.1.0", "op.v1.3.0"),
        ("op.v1.0.0", "op.v1.3.0"),
        ("op.v1.1.5", "op.v1.3.0"),
    }


def test_installed_csv_outside_the_channel_gets_the_edges_that_admit_it() -> None:
    v = view("op.v1.0.5", "1.0.5")
    assert [(e.source, e.target, e.via) for e in v.edges if e.source == "op.v1.0.5"] == [
        ("op.v1.0.5", "op.v1.3.0", "skipRange")
    ]
    mermaid = render_mermaid(v)
    assert '  n5["1.0.5<br/>op.v1.0.5<br/>installed, not in this channel"]' in mermaid
    assert "  n5 -.->|in skipRange of| n0" in mermaid
    assert "  class n5 installed" in mermaid
    assert render_text(v).endswith("op.v1.0.5  1.0.5 [installed] [not in channel]\n")


def test_mermaid_labels_escape_quotes_brackets_and_pipes() -> None:
    assert (
        mermaid_text('a "b" <c> | #d & `e`\nf')
        == "a #34;b#34; #60;c#62; #124; #35;d #38; #96;e#96; f"
    )
    hostile = Package(
        "p",
        "c",
        {"c": Channel("p", "c", (E('x"];click', skip_range='"]'),))},
        {'x"];click': Bundle('x"];click', "p", '1.0.0"]')},
    )
    out = render_mermaid(channel_view(hostile.channels["c"], hostile))
    assert '  n0["1.0.0#34;]<br/>x#34;];click<br/>skipRange #34;]"]' in out
    # Every label is one double-quoted string: no raw quote inside any label.
    for line in out.splitlines():
        if line.startswith("  n0["):
            assert line.count('"') == 2


def test_unorderable_channel_has_no_head_and_shows_olms_error() -> None:
    pkg = Package(
        "p",
        "c",
        {"c": Channel("p", "c", (E("b.v2"), E("a.v1")))},
        {"b.v2": Bundle("b.v2", "p", "2.0.0"), "a.v1": Bundle("a.v1", "p", "1.0.0")},
    )
    v = channel_view(pkg.channels["c"], pkg)
    assert v.head is None
    text = render_text(v)
    assert text.splitlines()[0] == "package p, channel c, head (none)"
    assert text.splitlines()[1].startswith("error: a unique replacement chain")
    assert [e.name for e in v.entries] == ["b.v2", "a.v1"]  # newest first
    assert text.splitlines()[3:] == [
        "b.v2  2.0.0 [competing head]",
        "a.v1  1.0.0 [competing head]",
    ]


def test_mermaid_of_a_headless_channel_carries_the_errors_and_marks_the_missing_head() -> None:
    pkg = Package(
        "p",
        "c",
        {"c": Channel("p", "c", (E("b.v2"), E("a.v1")))},
        {"b.v2": Bundle("b.v2", "p", "2.0.0"), "a.v1": Bundle("a.v1", "p", "1.0.0")},
    )
    mermaid = render_mermaid(channel_view(pkg.channels["c"], pkg))
    check_mermaid_statements(mermaid)
    lines = mermaid.splitlines()
    assert lines[2].startswith(
        "  %% error: a unique replacement chain within a channel is required"
    )
    assert lines[3] == "  %% error: multiple channel heads found in graph: a.v1, b.v2"
    assert '  nohead["no channel head<br/>2 entries compete for it (marked)"]' in lines
    assert lines[-2:] == ["  class nohead nohead", "  class n0,n1 competing"]
    assert not any(line.endswith(" head") for line in lines)  # no entry drawn as the head


def test_a_replacement_cycle_has_no_competing_heads_and_says_why_in_the_node() -> None:
    entries = (E("a.v1", "b.v2"), E("b.v2", "a.v1"))
    pkg = Package("p", "c", {"c": Channel("p", "c", entries)}, {})
    v = channel_view(pkg.channels["c"], pkg)
    assert (v.head, v.competing_heads) == (None, ())
    mermaid = render_mermaid(v)
    assert (
        '  nohead["no channel head<br/>no channel heads (entries not replaced by another '
        'entry) found in channel #34;c#34; of package #34;p#34;"]'
    ) in mermaid
    assert "competing" not in mermaid.split("classDef competing")[1]


def test_edges_run_from_the_replaced_bundle_and_read_replaced_by() -> None:
    """B replaces A: A upgrades to B. The arrow A --> B must not read "A replaces B"."""
    entries = (E("op.b", "op.a", skips=("op.s",)), E("op.a"), E("op.s"))
    pkg = Package("op", "c", {"c": Channel("op", "c", entries)}, {})
    lines = render_mermaid(channel_view(pkg.channels["c"], pkg)).splitlines()
    assert lines[5:8] == [  # the chain first (op.b, op.a), then the skipped op.s
        '  n0["no version<br/>op.b"]',
        '  n1["no version<br/>op.a"]',
        '  n2["no version<br/>op.s"]',
    ]
    assert lines[8:10] == ["  n1 -->|replaced by| n0", "  n2 -.->|skipped by| n0"]


def test_a_channel_opm_rejects_keeps_its_head_and_carries_the_error() -> None:
    entries = (E("p.v2", "p.v1", skip_range="not a range"), E("p.v1"))
    pkg = Package("p", "c", {"c": Channel("p", "c", entries)}, {})
    v = channel_view(pkg.channels["c"], pkg)
    assert v.head == "p.v2"
    [error] = v.errors
    assert error.startswith('invalid bundle "p.v2": invalid skipRange "not a range"')
    mermaid = render_mermaid(v)
    assert f"  %% error: {error}" in mermaid.splitlines()
    assert "nohead" not in mermaid and mermaid.endswith("  class n0 head\n")


def check_mermaid_statements(text: str) -> None:
    """Every line is one of the statement forms olmtui writes, labels are single quoted
    strings without raw quotes, ids are declared before use, linkStyle indices exist."""
    import re

    node = re.compile(r'  (n\d+|nohead)\["([^"]*)"\]\Z')
    edge = re.compile(r"  (n\d+) (-->|-\.->)\|(replaced by|skipped by|in skipRange of)\| (n\d+)\Z")
    declared: set[str] = set()
    edges = 0
    lines = text.splitlines()
    assert lines[0] == "flowchart BT"
    for line in lines[1:]:
        if m := node.match(line):
            declared.add(m[1])
        elif m := edge.match(line):
            assert {m[1], m[4]} <= declared
            assert (m[2] == "-->") == (m[3] == "replaced by")
            edges += 1
        elif line.startswith("  linkStyle "):
            indices = line.split()[1].split(",")
            assert all(0 <= int(i) < edges for i in indices)
        elif line.startswith("  class "):
            assert set(line.split()[1].split(",")) <= declared
        else:
            assert line.startswith(("  %% ", "  classDef ")), line


def test_mermaid_of_every_real_etcd_and_keycloak_channel_is_well_formed() -> None:
    from olmtui.sources.catalog.catalogs import load_catalog

    operators = f"{DATA}/catalogs/community-operators-prod/operators/"
    for name in ("etcd", "keycloak-operator", "cert-manager"):
        package = load_catalog(operators + name).packages[name]
        for channel in package.channels.values():
            installed = channel.entries[-1].name
            check_mermaid_statements(render_mermaid(channel_view(channel, package, installed)))


def test_the_mermaid_checker_rejects_a_broken_drawing() -> None:
    import pytest

    good = render_mermaid(view())
    check_mermaid_statements(good)
    for broken in (
        good.replace("  n1 -->|replaced by| n0", "  n9 -->|replaced by| n0"),
        good.replace("linkStyle 5 ", "linkStyle 8 "),
        good.replace('n1["1.2.0', 'n1["1."2.0'),
    ):
        with pytest.raises(AssertionError):
            check_mermaid_statements(broken)
