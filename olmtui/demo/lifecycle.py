"""The demo's support lifecycle (R-LCY-1): one lifecycle document, for keycloak-operator,
added to the content standing for the READY CatalogSource, so that the keycloak the demo
installs behind its channel (26.6) is out of support and names 26.7 as the way out
(R-LCY-3, R-LCY-6)."""

from __future__ import annotations

from olmtui.demo.bundles import FIXTURES
from olmtui.model.records.catalog import Catalog
from olmtui.sources.catalog.fbc import load_fbc

LIFECYCLE_PATH = FIXTURES / "lifecycle.yaml"


def with_lifecycles(catalog: Catalog) -> Catalog:
    """``catalog`` with the demo's lifecycle document read into it (in place)."""
    load_fbc([LIFECYCLE_PATH], catalog)
    return catalog
