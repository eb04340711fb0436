"""The git-log-style layout of an upgrade graph (olmtui/ui/graph_lanes.py) on published
channels: infinispan ``stable`` (skipRange and skips) and keycloak-operator ``alpha``."""

from __future__ import annotations

import itertools

import pytest
from data_paths import TESTS
from model_builders import DATA

from olmtui.model.viewmodels.graph_render import channel_view
from olmtui.sources.catalog.catalogs import load_catalog
from olmtui.ui.graph_lanes import lane_cells, layout

PROD = DATA / "catalogs" / "community-operators-prod" / "operators"
KEYCLOAK = TESTS / "data" / "ui" / "keycloak-catalog"


@pytest.fixture(scope="module")
def infinispan():
    catalog = load_catalog(str(PROD / "infinispan"))
    package = next(iter(catalog.packages.values()))
    return channel_view(package.channels["stable"], package)


def test_neighbouring_replaces_need_no_lane():
    catalog = load_catalog(str(KEYCLOAK))
    package = catalog.packages["keycloak-operator"]
    view = channel_view(package.channels["alpha"], package)
    lay = layout(view)
    assert lay.names[0] == view.head
    assert all(lane.via != "replaces" or lane.bottom - lane.top > 1 for lane in lay.lanes)
    assert len(lay.names) == len(view.entries)


def test_r_upg_2_skip_range_lane_starts_at_its_target_and_ticks_each_admitted_version(infinispan):
    lay = layout(infinispan)
    head = lay.names.index(infinispan.head)
    lane = next(ln for ln in lay.lanes if ln.target == infinispan.head and ln.via == "skipRange")
    assert lane.top == head
    assert lane_cells(lay, head)[lane.column] == ("▲", "skipRange", False)
    assert lane_cells(lay, lane.bottom)[lane.column][0] == "┴"
    middle = sorted(lane.sources)[0]
    assert lane_cells(lay, middle)[lane.column][0] in ("┼", "┴")
    admitted = {
        e.source for e in infinispan.edges if e.target == infinispan.head and e.via == "skipRange"
    }
    assert {lay.names[i] for i in lane.sources} == admitted


def test_lanes_that_do_not_overlap_share_a_column(infinispan):
    lay = layout(infinispan)
    by_column: dict[int, list] = {}
    for lane in lay.lanes:
        by_column.setdefault(lane.column, []).append(lane)
    for lanes in by_column.values():
        lanes.sort(key=lambda ln: ln.top)
        for before, after in itertools.pairwise(lanes):
            assert before.bottom < after.top
    assert lay.width < len(lay.lanes)


def test_path_edges_are_highlighted(infinispan):
    edge = next(e for e in infinispan.edges if e.via == "skips")
    lay = layout(infinispan, frozenset({(edge.source, edge.target)}))
    highlighted = [ln for ln in lay.lanes if ln.on_path]
    assert [(ln.target, ln.via) for ln in highlighted] == [(edge.target, "skips")]
