"""The registry of views: names and aliases for ``:``, and the screens behind them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from olmtui.frozen import frozen
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.session import Session
from olmtui.ui.screens.catalogs import CatalogsScreen
from olmtui.ui.screens.clustercatalogs import ClusterCatalogsScreen
from olmtui.ui.screens.csvs import CSVsScreen
from olmtui.ui.screens.extensions import ClusterExtensionsScreen
from olmtui.ui.screens.findings import FindingsScreen
from olmtui.ui.screens.graph import ChannelsScreen, graph_for
from olmtui.ui.screens.help import HelpScreen
from olmtui.ui.screens.installplans import InstallPlansScreen
from olmtui.ui.screens.migration import MigrationScreen
from olmtui.ui.screens.namespaces import NamespacesScreen
from olmtui.ui.screens.operatorgroups import OperatorGroupsScreen
from olmtui.ui.screens.overview import OverviewScreen
from olmtui.ui.screens.recording_changes import changes_screen
from olmtui.ui.screens.subscriptions import SubscriptionsScreen
from olmtui.ui.screens.upgrade import UpgradeScreen
from olmtui.ui.screens.xray import XrayScreen


@frozen
class ViewSpec:
    name: str
    title: str
    aliases: tuple[str, ...]
    help: str
    screen: Callable[..., Screen[Any]]


VIEWS: tuple[ViewSpec, ...] = (
    ViewSpec(
        "overview",
        "Overview",
        ("home", "pulse"),
        "counts, health and what needs attention",
        OverviewScreen,
    ),
    ViewSpec(
        "namespaces",
        "Namespaces",
        # ``olmtui view ns`` opens it; in the ``:`` prompt ``ns [NAME]`` scopes the views
        ("ns", "namespace"),
        "groups, operators and watchers per namespace",
        NamespacesScreen,
    ),
    ViewSpec(
        "operatorgroups",
        "OperatorGroups",
        ("og", "operatorgroup"),
        "targets, APIs, conflicts and cluster roles",
        OperatorGroupsScreen,
    ),
    ViewSpec(
        "csvs",
        "Operators (CSVs)",
        ("csv", "operators", "clusterserviceversions"),
        "phase, verdict, APIs and copies",
        CSVsScreen,
    ),
    ViewSpec(
        "subscriptions",
        "Subscriptions",
        ("sub", "subs", "subscription"),
        "upgrades, approvals, InstallPlans and conditions",
        SubscriptionsScreen,
    ),
    ViewSpec(
        "installplans",
        "InstallPlans",
        ("ip", "installplan"),
        "steps, approval, bundle lookups and the CSVs each installs",
        InstallPlansScreen,
    ),
    ViewSpec(
        "xray",
        "X-ray",
        ("tree",),
        "per operator: Subscription -> InstallPlan -> CSV -> Deployments, CRDs, copies",
        XrayScreen,
    ),
    ViewSpec(
        "graphs",
        "Upgrade graphs",
        ("graph", "channels", "packages"),
        "every channel's upgrade graph",
        ChannelsScreen,
    ),
    ViewSpec(
        "findings",
        "Findings",
        ("finding", "problems"),
        "every problem, worst first",
        FindingsScreen,
    ),
    ViewSpec(
        "catalogs",
        "Catalogs",
        ("catsrc", "catalogsources", "catalog"),
        "CatalogSources, health and packages",
        CatalogsScreen,
    ),
    ViewSpec(
        "clusterextensions",
        "ClusterExtensions",
        ("ce", "clusterextension", "extensions"),
        "OLM v1: installed bundle, state, what it would resolve to",
        ClusterExtensionsScreen,
    ),
    ViewSpec(
        "clustercatalogs",
        "ClusterCatalogs",
        ("cc", "clustercatalog"),
        "OLM v1: serving, priority, resolved digest, extensions",
        ClusterCatalogsScreen,
    ),
    ViewSpec(
        "migration",
        "Migration to OLM v1",
        ("migrate", "mig"),
        "per v0 operator: the migration tool's state, rules C1..C10, the ClusterExtension",
        MigrationScreen,
    ),
    ViewSpec(
        "upgrade",
        "Cluster upgrade",
        ("cup", "readiness", "ocp-upgrade"),
        "what holds the next OpenShift minor: v0 and v1 caps, the way out",
        UpgradeScreen,
    ),
    ViewSpec(
        "changes",
        "Changes",
        ("events", "log"),
        "what changed when (live; a recording: its whole timeline)",
        changes_screen,
    ),
)


def resolve(word: str) -> str | None:
    """A view name from a name, an alias or an unambiguous prefix (case-insensitive)."""
    word = word.strip().lower()
    for spec in VIEWS:
        if word == spec.name or word in spec.aliases:
            return spec.name
    matches = [s.name for s in VIEWS if s.name.startswith(word)] if word else []
    return matches[0] if len(matches) == 1 else None


def command_words() -> list[str]:
    return [w for spec in VIEWS for w in (spec.name, *spec.aliases)]


def graph_screen(session: Session, target: ObjectRef | None) -> Screen[None] | None:
    return graph_for(session, target)


def help_screen() -> Screen[None]:
    return HelpScreen()
