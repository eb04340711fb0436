"""The demo's real content: published CSVs (icon dropped) and their packages' catalog.

The CSVs come from community-operators-prod (see ``fixtures/README.md``); the catalog is
each package's published upgrade graph written as a file-based catalog, so that upgrade
paths in the demo are the ones OLM would compute.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import yaml

Obj = dict[str, Any]

FIXTURES = Path(__file__).parent / "fixtures"
CSV_DIR = FIXTURES / "csvs"
CATALOG_PATH = FIXTURES / "catalog.yaml"
#: The packages the catalog holds, in the order the file lists them.
PACKAGES: tuple[str, ...] = (
    "cert-manager",
    "etcd",
    "keycloak-operator",
    "node-healthcheck-operator",
    "rabbitmq-messaging-topology-operator",
)

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _read(name: str) -> Obj:
    document: Obj = yaml.load((CSV_DIR / f"{name}.yaml").read_bytes(), Loader=_LOADER)
    return document


def fixture_csv(name: str) -> Obj:
    """A fresh copy of the published CSV ``name`` (callers may change it)."""
    return copy.deepcopy(_read(name))
