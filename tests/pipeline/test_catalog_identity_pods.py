"""``:catsrc``'s view of a catalog follows its registry pods (R-EVD-1): live, the pods
arrive after the CatalogSource and crash-loop later; what the analysis keeps of a catalog
is built again when a Pod changes, not only when a CatalogSource does."""

from __future__ import annotations

from pathlib import Path

from model_builders import catalog_source, namespace, pod
from simulation_support import session_of

MARKET = "openshift-marketplace"
KEY = (MARKET, "community")


def test_a_catalogs_pods_follow_the_pods_as_they_change(tmp_path: Path) -> None:
    session = session_of([namespace(MARKET), catalog_source(MARKET, "community")], tmp_path)
    analysis = session.analysis
    assert analysis.catalog_identities()[KEY].pods == ()
    labels = {"olm.catalogSource": "community"}
    session.store.apply("ADDED", pod(MARKET, "community-xyz", labels=labels))
    assert [p.ready for p in analysis.catalog_identities()[KEY].pods] == [True]
    crashing = pod(
        MARKET, "community-xyz", labels=labels, ready=False, restarts=4, waiting="CrashLoopBackOff"
    )
    session.store.apply("MODIFIED", crashing)
    (shown,) = analysis.catalog_identities()[KEY].pods
    assert (shown.ready, shown.restarts, shown.waiting) == (False, 4, "CrashLoopBackOff")
