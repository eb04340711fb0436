"""The demo's revisions (``olmtui.demo.v1_revisions``, R-V1-24..R-V1-26): cert-manager mid-upgrade
with two active ClusterObjectSets, node-healthcheck-operator past its progress deadline."""

from __future__ import annotations

from olmtui.demo.scenario import build_scenario
from olmtui.demo.v1_revisions import CERT_MANAGER, NHC_PROBE_FAILURE, NODE_HEALTHCHECK
from olmtui.model.rules.v1.revision_findings import revision_findings
from olmtui.model.rules.v1.revisions import revisions_by_extension


def _objects(kind: str) -> list[dict[str, object]]:
    return [o for o in build_scenario().objects if o["kind"] == kind]


def test_one_extension_mid_upgrade_and_one_past_its_deadline() -> None:
    revisions = revisions_by_extension(_objects("ClusterExtension"), _objects("ClusterObjectSet"))
    cert_manager, stuck = revisions[CERT_MANAGER], revisions[NODE_HEALTHCHECK]
    assert [(r.number, r.lifecycle_state) for r in cert_manager.revisions] == [
        (1, "Archived"),
        (2, "Active"),
        (3, "Active"),
    ]
    assert cert_manager.label == "2 active, 1 archived (rolling out)"
    assert stuck.label == "2 active (deadline exceeded)"
    # The other extensions run without the revisions API: nothing to show.
    assert revisions["infinispan"].label == ""


def test_only_the_stuck_rollout_is_a_finding() -> None:
    found = revision_findings(_objects("ClusterExtension"), _objects("ClusterObjectSet"))
    assert sorted((f.code, f.name) for f in found) == [
        ("ClusterExtensionDeadlineExceeded", NODE_HEALTHCHECK),
        ("ClusterObjectSetProbeFailure", f"{NODE_HEALTHCHECK}-2"),
    ]
    deadline = next(f for f in found if f.severity == "error")
    assert [e.value for e in deadline.evidence] == [NHC_PROBE_FAILURE]
