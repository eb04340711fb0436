"""How the cache keeps a ClusterObjectSet (R-V1-24): names, numbers, states and references,
never the manifests; bounded by the API's own limits; wrong-typed fields dropped, never a
crash (hostile input is generated here)."""

from __future__ import annotations

from v1_objects import object_set

from olmtui.model.rules.v1.revision_findings import revision_findings
from olmtui.model.rules.v1.revisions import decode_revision
from olmtui.store import Store
from olmtui.store_revisions import MAX_OBJECTS, MAX_PHASES, trim_revision


def test_a_huge_revision_is_kept_small() -> None:
    big = object_set()
    huge_phase = {
        "name": "deploy",
        "objects": [
            {
                "object": {
                    "kind": "ConfigMap",
                    "metadata": {"name": f"c{i}"},
                    "data": {"x": "y" * 1000},
                }
            }
            for i in range(500)
        ],
    }
    big["spec"]["phases"] = [huge_phase] * 100
    kept = trim_revision(big)
    assert len(kept["spec"]["phases"]) == MAX_PHASES
    assert all(len(p["objects"]) == MAX_OBJECTS for p in kept["spec"]["phases"])
    assert "y" * 1000 not in str(kept)


def test_wrong_typed_fields_are_dropped_not_fatal() -> None:
    hostile = object_set()
    hostile["spec"] = {
        "revision": "2",
        "lifecycleState": ["Active"],
        "phases": ["crds", {"name": 7, "objects": "all"}, {"objects": [None, {"ref": "x"}]}],
        "progressDeadlineMinutes": True,
    }
    hostile["status"] = {"conditions": [None, {"type": "Progressing", "message": 3}]}
    hostile["metadata"]["ownerReferences"] = [None, "x", {"kind": 1}]
    store = Store()
    store.apply("ADDED", hostile)
    kept = store.get("ClusterObjectSet", "", "argocd-2")
    assert kept is not None
    revision = decode_revision(kept)
    assert (revision.number, revision.lifecycle_state, revision.progress_deadline_minutes) == (
        None,
        "",
        None,
    )
    # R-SRC-4: the wrong types are recorded, and nothing is said of the revision.
    assert any(k.kind == "ClusterObjectSet" for k in store.malformed)
    assert revision_findings([], [kept]) == []
