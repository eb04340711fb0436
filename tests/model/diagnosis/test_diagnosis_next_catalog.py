"""R-DIAG-36, R-DIAG-37: a next-catalog finding (R-NXT-*) folds into the incident of what the
current state already says about the same Subscription: a deprecation that announced the
removal, an upgrade waiting for approval that keeps the installed version behind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from model_builders import csv, install_plan, namespace, operator_group, subscription
from simulation_support import session_of

from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.records.diagnosis import Incident

Obj = dict[str, Any]
NS = "team"
SUB = ("Subscription", NS, "etcd")


def next_catalog(channel: str, entries: tuple[ChannelEntry, ...]) -> Catalog:
    bundles = {x.name: Bundle(x.name, "etcd", x.name.removeprefix("etcd.v")) for x in entries}
    package = Package("etcd", channel, {channel: Channel("etcd", channel, entries)}, bundles)
    return Catalog("olm/community", "next", packages={"etcd": package})


def incidents(tmp_path: Path, objects: list[Obj], nxt: Catalog) -> list[Incident]:
    session = session_of(objects, tmp_path)
    session.next_catalogs = [nxt]
    return list(session.analysis.diagnosis().incidents())


def cluster(**sub: Any) -> list[Obj]:
    return [
        namespace(NS),
        operator_group(NS, "og"),
        subscription(
            NS,
            "etcd",
            package="etcd",
            channel="alpha",
            source="community",
            source_ns="olm",
            installed="etcd.v0.9.2",
            **sub,
        ),
        csv(NS, "etcd.v0.9.2", version="0.9.2"),
    ]


def test_r_diag_36_the_deprecated_channel_is_the_root_of_its_removal(tmp_path: Path) -> None:
    objects = cluster(conditions=(("ChannelDeprecated", "True", "Deprecated", "use stable"),))
    nxt = next_catalog("stable", (ChannelEntry("etcd.v0.9.4", "etcd.v0.9.2"),))
    (incident,) = [i for i in incidents(tmp_path, objects, nxt) if i.root[0] == "ChannelDeprecated"]
    assert incident.root == ("ChannelDeprecated", *SUB)
    assert incident.consequences == (("NextCatalogChannelMissing", *SUB),)


def test_r_diag_37_an_upgrade_waiting_for_approval_is_the_root(tmp_path: Path) -> None:
    objects = [
        *cluster(
            approval="Manual",
            state="UpgradePending",
            plan="install-abc",
            conditions=(("InstallPlanPending", "True", "RequiresApproval", ""),),
        ),
        install_plan(
            NS,
            "install-abc",
            "RequiresApproval",
            False,
            csvs=[("etcd.v0.9.4", None)],
            lookups=False,
        ),
    ]
    nxt = next_catalog("alpha", (ChannelEntry("etcd.v0.9.6", "etcd.v0.9.4"),))
    (incident,) = [i for i in incidents(tmp_path, objects, nxt) if i.root[0] == "UpgradePending"]
    assert incident.root == ("UpgradePending", *SUB)
    assert ("NextCatalogNoUpgradeEdge", *SUB) in incident.consequences


def test_without_a_cause_the_next_catalog_finding_is_its_own_root(tmp_path: Path) -> None:
    nxt = next_catalog("stable", (ChannelEntry("etcd.v0.9.4", "etcd.v0.9.2"),))
    roots = [i.root for i in incidents(tmp_path, cluster(), nxt)]
    assert ("NextCatalogChannelMissing", *SUB) in roots
