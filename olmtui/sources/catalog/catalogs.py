"""Catalog content for upgrade graphs: ``--catalog [NAMESPACE/NAME=|NAME=]PATH`` and
PackageManifests. ``NAMESPACE/NAME=`` binds the content to an OLM v0 CatalogSource, ``NAME=``
(no ``/``) to an OLM v1 ClusterCatalog (R-V1-22), nothing to every catalog of either kind.

A PATH is read as one of three formats, decided from what it holds:

* bundle format and legacy package manifests, when the tree holds any bundle directory
  (``metadata/annotations.yaml``) or ``*.package.yaml`` file. Then only those are read: a
  checkout of community-operators-prod given at its root is read from ``operators/``, and its
  rendered ``catalogs/v4.xx`` FBCs are ignored (they are a different, pipeline-made graph
  for one OpenShift version), and a ``*.package.yaml`` left in a tree of bundle directories
  is ignored as stale;
* a file-based catalog (FBC) otherwise: one file, or every YAML/JSON file of a tree, e.g.
  a PATH pointing into ``catalogs/``.

Unreadable files and documents are findings on the Catalog; a PATH that does not exist, or
that holds no catalog content at all, is a ``UsageError`` (exit status 2).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from olmtui.errors import UsageError
from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.catalog.packagemanifest_catalog import catalog_from_packagemanifests
from olmtui.sources.catalog.bundle_dirs import annotations_file, load_bundle_dirs
from olmtui.sources.catalog.fbc import load_fbc
from olmtui.sources.catalog.files import catalog_files
from olmtui.sources.catalog.legacy import is_package_file, load_legacy_package

__all__ = ["catalog_from_packagemanifests", "load_catalog", "parse_catalog_spec"]

#: ``NAMESPACE/NAME=`` with Kubernetes name syntax, so that a path holding ``=`` still works.
_SPEC = re.compile(
    r"(?P<ns>[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)/(?P<name>[a-z0-9](?:[-.a-z0-9]*[a-z0-9])?)="
    r"(?P<path>.*)\Z",
    re.DOTALL,
)
#: ``NAME=`` of a ClusterCatalog (a DNS-1123 subdomain: lower case, digits, ``-`` and ``.``),
#: so a Windows path (``C:\x=y``) or a relative one (``./a=b``) is never taken for a name.
_CLUSTER_SPEC = re.compile(
    r"(?P<name>[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*)="
    r"(?P<path>.*)\Z",
    re.DOTALL,
)


def parse_catalog_spec(spec: str) -> tuple[str | None, Path]:
    """``"ns/name=path"`` -> ``("ns/name", Path("path"))`` (a CatalogSource);
    ``"name=path"`` -> ``("name", Path("path"))`` (a ClusterCatalog, R-V1-22), unless a file
    named ``name=path`` exists: then, as ``"path"``, it is ``(None, Path)``."""
    match = _SPEC.match(spec)
    if match:
        ref, path = f"{match['ns']}/{match['name']}", match["path"]
    elif (cluster := _CLUSTER_SPEC.match(spec)) and not Path(spec).exists():
        ref, path = cluster["name"], cluster["path"]
    else:
        ref, path = None, spec
    if not path:
        raise UsageError(f"--catalog {spec}: no PATH given")
    return ref, Path(path)


def find_bundle_layout(root: Path) -> tuple[list[Path], list[Path]]:
    """Bundle directories and legacy ``*.package.yaml`` files under ``root``."""
    bundle_dirs: list[Path] = []
    package_files: list[Path] = []
    for current, dirnames, filenames in os.walk(root):
        here = Path(current)
        if annotations_file(here) is not None:
            bundle_dirs.append(here)
            dirnames[:] = []
            continue
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        package_files += [here / f for f in sorted(filenames) if is_package_file(Path(f))]
    return sorted(bundle_dirs), sorted(package_files)


def load_catalog(spec: str) -> Catalog:
    """Read the catalog a ``--catalog`` argument names (see the module docstring)."""
    ref, path = parse_catalog_spec(spec)
    if not path.exists():
        raise UsageError(f"--catalog {path}: no such file or directory")
    catalog = Catalog(ref, str(path))
    if path.is_file():
        if is_package_file(path):
            load_legacy_package(path, catalog)
        else:
            load_fbc([path], catalog)
    else:
        bundle_dirs, package_files = find_bundle_layout(path)
        if bundle_dirs or package_files:
            load_bundle_dirs(bundle_dirs, catalog)
            for package_file in package_files:
                # A package manifest left beside bundle directories is stale: bundles win.
                if not any(d.is_relative_to(package_file.parent) for d in bundle_dirs):
                    load_legacy_package(package_file, catalog)
        else:
            load_fbc(catalog_files(path), catalog)
    if not catalog.packages:
        why = f" ({catalog.findings[0].message})" if catalog.findings else ""
        raise UsageError(f"--catalog {path}: no catalog content found{why}")
    return catalog
