"""R-CUP-7: the way out of a capped ClusterExtension as operator-controller would follow it.
A newer bundle whose cap allows the next minor is named only when the resolver, with the
extension's spec as it is or with its version constraint changed, ends there; otherwise
what stands in the way is said. The catalog has argocd-operator's shape: 0.6.0 installed and
capped at 4.18, 0.7.0 capped too and replacing it, 0.8.0 (allows 4.19) replacing 0.7.0 in
``alpha``, and 0.9.0 (allows 4.19) only in ``beta``."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from v1_objects import catalog, extension

from olmtui.model.records.catalog import Catalog
from olmtui.model.rules.cluster_readiness.extension_caps import extension_caps
from olmtui.model.rules.cluster_readiness.extension_way_out import (
    ExtensionWayOut,
    upgrades,
    way_out_text,
)
from olmtui.model.rules.v1.resolve import content_by_catalog
from olmtui.sources.catalog.catalogs import load_catalog

PACKAGE = "argocd-operator"
CURRENT = (4, 18)
INSTALLED = (f"{PACKAGE}.v0.6.0", "0.6.0")


def _bundle(version: str, cap: str | None) -> dict[str, Any]:
    props: list[dict[str, Any]] = [
        {"type": "olm.package", "value": {"packageName": PACKAGE, "version": version}}
    ]
    if cap is not None:
        props.append({"type": "olm.maxOpenShiftVersion", "value": cap})
    return {
        "schema": "olm.bundle",
        "name": f"{PACKAGE}.v{version}",
        "package": PACKAGE,
        "image": f"quay.io/argoprojlabs/argocd-operator-bundle:v{version}",
        "properties": props,
    }


def _entry(version: str, replaces: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": f"{PACKAGE}.v{version}"}
    if replaces:
        entry["replaces"] = f"{PACKAGE}.v{replaces}"
    return entry


def _content(tmp_path: Path, *, direct: bool = False, beta_cap: str | None = None) -> Catalog:
    """``direct``: 0.8.0 replaces 0.6.0 itself (one edge), else 0.7.0 (two edges);
    ``beta_cap``: 0.9.0's cap."""
    docs: list[dict[str, Any]] = [
        {"schema": "olm.package", "name": PACKAGE, "defaultChannel": "alpha"},
        {
            "schema": "olm.channel",
            "package": PACKAGE,
            "name": "alpha",
            "entries": [
                _entry("0.6.0"),
                _entry("0.7.0", "0.6.0"),
                _entry("0.8.0", "0.6.0" if direct else "0.7.0"),
            ],
        },
        {
            "schema": "olm.channel",
            "package": PACKAGE,
            "name": "beta",
            "entries": [_entry("0.6.0"), _entry("0.9.0", "0.6.0")],
        },
        _bundle("0.6.0", "4.18"),
        _bundle("0.7.0", "4.18"),
        _bundle("0.8.0", "4.20"),
        _bundle("0.9.0", beta_cap),
    ]
    path = tmp_path / "catalog.json"
    path.write_text("\n".join(json.dumps(d) for d in docs))
    return load_catalog(f"operatorhubio={path}")


def _way(obj: dict[str, Any], content: list[Catalog]) -> ExtensionWayOut:
    [cap] = extension_caps([obj], [catalog()], content, CURRENT)
    assert cap.way is not None
    return cap.way


def _argocd(**spec: Any) -> dict[str, Any]:
    return extension(package=PACKAGE, installed=INSTALLED, **spec)


@pytest.mark.parametrize("pin", ["0.6.0", "=0.6.0", ">=0.6.0 <0.8.0", "<0.8.0", "~0.6"])
def test_a_constraint_that_excludes_the_target_is_changed_to_admit_it(
    tmp_path: Path, pin: str
) -> None:
    way = _way(_argocd(version=pin, channels=["alpha"]), [_content(tmp_path, direct=True)])
    assert way.target is not None and way.target.name == f"{PACKAGE}.v0.8.0"
    assert (way.constraint, way.patched, way.automatic) == (pin, "0.8.0", False)
    assert [r.bundle for r in way.path] == [f"{PACKAGE}.v0.8.0"]
    text = way_out_text(way, "argocd", CURRENT)
    assert f'its version constraint "{pin}" does not admit it' in text
    assert f'change spec.source.catalog.version from "{pin}" to "0.8.0"' in text
    assert (
        "oc patch clusterextension argocd --type merge -p "
        """'{"spec":{"source":{"catalog":{"version":"0.8.0"}}}}'"""
    ) in text
    assert f"replaces {PACKAGE}.v0.6.0 in channel alpha" in text


def test_two_edges_away_the_constraint_lets_it_walk_successor_by_successor(
    tmp_path: Path,
) -> None:
    # R-V1-15: pinning 0.8.0 finds no direct successor; "<=0.8.0" moves 0.6 -> 0.7 -> 0.8
    way = _way(_argocd(version="0.6.0", channels=["alpha"]), [_content(tmp_path)])
    assert way.patched == "<=0.8.0"
    assert [r.version for r in way.path] == ["0.7.0", "0.8.0"]
    assert "one successor at a time: 0.7.0, then 0.8.0" in way_out_text(way, "argocd", CURRENT)


def test_no_constraint_and_an_upgrade_path_needs_no_change(tmp_path: Path) -> None:
    way = _way(_argocd(channels=["alpha"]), [_content(tmp_path)])
    assert way.automatic and way.patched is None
    assert way.target is not None and way.target.version == "0.8.0"
    assert way_out_text(way, "argocd", CURRENT).startswith(
        f"Its spec already lets operator-controller upgrade it to {PACKAGE}.v0.8.0"
    )


def test_without_channels_every_channel_s_successor_counts(tmp_path: Path) -> None:
    """Without channels the highest direct successor is 0.9.0 (beta, no cap): that allows too,
    so the spec leads out by itself."""
    way = _way(_argocd(), [_content(tmp_path, direct=True)])
    assert way.automatic and way.target is not None and way.target.version == "0.9.0"


def test_no_constraint_that_walks_past_the_target_is_pinned_to_it(tmp_path: Path) -> None:
    """The highest direct successor, 0.9.0, is capped too: without a constraint the resolver
    ends there, so the constraint is set to 0.8.0."""
    way = _way(_argocd(), [_content(tmp_path, direct=True, beta_cap="4.18")])
    assert (way.constraint, way.patched, way.automatic) == ("", "0.8.0", False)
    text = way_out_text(way, "argocd", CURRENT)
    assert "without a version constraint operator-controller does not end there" in text
    assert 'from unset to "0.8.0"' in text


def test_a_target_in_no_channel_asked_for_is_said_not_patched(tmp_path: Path) -> None:
    cat = _content(tmp_path)
    # only 0.9.0 (beta) would do once alpha's 0.8.0 is capped
    bundles = cat.packages[PACKAGE].bundles
    name = f"{PACKAGE}.v0.8.0"
    bundles[name] = replace(bundles[name], max_openshift_versions=('"4.18"',))
    way = _way(_argocd(version="0.6.0", channels=["alpha"]), [cat])
    assert way.target is None and way.patched is None
    assert way.missing is not None
    assert f"{PACKAGE}.v0.9.0 (version 0.9.0) is in no channel the extension asks for" in (
        way.missing
    )
    assert "it is in beta" in way.missing
    assert way_out_text(way, "argocd", CURRENT).startswith(
        "No upgrade that allows 4.19 is shown to work"
    )


def test_no_upgrade_edge_is_said(tmp_path: Path) -> None:
    cat = _content(tmp_path)
    alpha = cat.packages[PACKAGE].channels["alpha"]
    no_edges = tuple(replace(e, replaces=None) for e in alpha.entries)
    cat.packages[PACKAGE].channels = {"alpha": replace(alpha, entries=no_edges)}
    way = _way(_argocd(version="0.6.0", channels=["alpha"]), [cat])
    assert way.target is None
    assert way.missing is not None and "no chain of upgrade edges leads from" in way.missing


def test_catalog_content_not_bound_to_the_extension_s_catalog_claims_nothing(
    tmp_path: Path,
) -> None:
    """The cap is read from content bound elsewhere, but what operator-controller resolves
    from its own ClusterCatalog is not known: no bundle is named."""
    cat = _content(tmp_path)
    cat.ref = "elsewhere"
    way = _way(_argocd(version="0.6.0"), [cat])
    assert way.target is None
    assert way.missing is not None and "is not known" in way.missing


def test_without_catalog_content_no_way_is_computed() -> None:
    [cap] = extension_caps([_argocd(version="0.6.0")], [catalog()], [], CURRENT)
    assert cap.catalog is None and cap.way is None


def test_upgrades_ends_on_a_cycle_of_edges(tmp_path: Path) -> None:
    """A hostile catalog whose bundles replace each other in a ring still ends."""
    cat = _content(tmp_path)
    alpha = cat.packages[PACKAGE].channels["alpha"]
    ring = (replace(alpha.entries[0], replaces=f"{PACKAGE}.v0.7.0"), *alpha.entries[1:])
    cat.packages[PACKAGE].channels["alpha"] = replace(alpha, entries=ring)
    obj = _argocd(channels=["alpha"], policy="SelfCertified")
    moves, last = upgrades(obj, [catalog()], content_by_catalog([cat], [catalog()]))
    assert len(moves) <= 4 and last.bundle is not None
