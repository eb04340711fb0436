"""The demo's next release (``olmtui demo --next-catalog``, R-NXT-*): the catalog the demo
cluster's catalogs would serve after its OpenShift upgrade, hand-written for the demo
(``fixtures/next-release.catalog.yaml``, in ``opm render``'s shape) and given for both the
CatalogSource of OLM v0 and the ClusterCatalog of OLM v1, as ``--next-catalog`` binds it.

What it shows: etcd is gone (both its Subscriptions), rabbitmq-messaging-topology-operator's
``stable`` channel was pruned to start past the installed 1.19.3 (no upgrade edge), the
``fast-3`` channel opendatahub-operator's ClusterExtension follows was merged back into
``fast``; cert-manager, keycloak-operator, node-healthcheck-operator, infinispan and
legacy-metrics-operator go on with an edge from what is installed.
"""

from __future__ import annotations

from olmtui.demo.bundles import FIXTURES
from olmtui.demo.scenario import CATALOG_REF
from olmtui.demo.v1 import COMMUNITY

NEXT_RELEASE = FIXTURES / "next-release.catalog.yaml"


def next_release_specs() -> list[str]:
    """The ``--next-catalog`` values that give the next release for the demo's community
    CatalogSource and ClusterCatalog."""
    return [f"{CATALOG_REF}={NEXT_RELEASE}", f"{COMMUNITY}={NEXT_RELEASE}"]
