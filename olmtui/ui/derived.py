"""What the screens show beyond the model's own records, computed once per model version.

The health rules (catalogs, Subscription conditions, InstallPlans, upgrades) are pure
functions over the cached objects; the screens need them on every redraw, so each result is
kept in the session until the model's ``version`` moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from olmtui.model.catalog import Catalog
from olmtui.model.catalog_health import CatalogHealth, catalog_health
from olmtui.model.health import merged_findings
from olmtui.model.installplans import PendingApproval, pending_approvals
from olmtui.model.metrics import Metrics, seed_metrics
from olmtui.model.types import CSVState, Finding, SubscriptionState
from olmtui.pipeline.session import Session
from olmtui.store import is_copied_csv

T = TypeVar("T")


def cached(session: Session, name: str, build: Callable[[], T]) -> T:
    version = session.model.version
    hit = session.derived_cache.get(name)
    if hit is not None and hit[0] == version:
        return hit[1]
    value = build()
    session.derived_cache[name] = (version, value)
    return value


def catalogs(session: Session) -> list[Catalog]:
    """Catalog content for upgrade graphs, as the model's upgrade hook sees it now."""
    return session.catalogs()


def all_findings(session: Session) -> list[Finding]:
    """Every finding, worst first, exactly as ``olmtui check`` reports them."""
    return cached(
        session,
        "findings",
        lambda: merged_findings(
            session.load_findings,
            model=session.model.findings(),
            health=session.health_findings(),
            unreadable=session.store.unreadable,
        ),
    )


def catalog_healths(session: Session) -> list[CatalogHealth]:
    return cached(
        session, "catalog_health", lambda: catalog_health(session.store.list("CatalogSource"))
    )


def approvals(session: Session) -> list[PendingApproval]:
    """InstallPlans waiting for someone to approve them (R-IP-2)."""
    store = session.store
    return cached(
        session,
        "approvals",
        lambda: pending_approvals(
            store.list("InstallPlan"),
            store.list("Subscription"),
            [c for c in store.list("ClusterServiceVersion") if not is_copied_csv(c)],
        ),
    )


def behind_head(session: Session) -> list[SubscriptionState]:
    """Subscriptions whose installed CSV is not their channel's head (R-UPG-1, R-UPG-5)."""
    return cached(
        session,
        "behind",
        lambda: [
            s
            for s in session.model.subscriptions()
            if s.upgrade.head and s.installed_csv and s.installed_csv != s.upgrade.head
        ],
    )


def subscription_for_csv(session: Session, csv: CSVState) -> SubscriptionState | None:
    """The Subscription that installed a CSV (``status.installedCSV``/``currentCSV``)."""
    for sub in session.model.subscriptions():
        if sub.namespace == csv.namespace and csv.name in (sub.installed_csv, sub.current_csv):
            return sub
    return None


def metrics(session: Session) -> Metrics:
    """The seed's OLM metrics (``olmtui.model.metrics``), as ``check`` reports them."""

    def build() -> Metrics:
        count = session.upgrade_count() if session.upgrade_count is not None else None
        return seed_metrics(session.store, session.model, count)

    return cached(session, "metrics", build)


def packages_of_catalog(session: Session, namespace: str, name: str) -> list[str]:
    """Packages the CatalogSource serves, from content loaded for it or for every source
    (``--catalog PATH`` without ``NS/NAME=``)."""
    wanted = f"{namespace}/{name}"
    found: set[str] = set()
    for catalog in catalogs(session):
        if catalog.ref in (wanted, None):
            found.update(catalog.packages)
    return sorted(found)


def channel_list(session: Session) -> list[tuple[Catalog, str, str]]:
    """``(catalog, package, channel)`` for every channel of the loaded content."""

    def build() -> list[tuple[Catalog, str, str]]:
        out = [
            (c, p.name, ch)
            for c in catalogs(session)
            for p in c.packages.values()
            for ch in p.channels
        ]
        return sorted(out, key=lambda t: (t[1], t[2], t[0].ref or ""))

    return cached(session, "channels", build)
