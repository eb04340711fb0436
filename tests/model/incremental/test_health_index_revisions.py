"""The incremental health index follows a ClusterExtension's revisions (R-V1-25..R-V1-27) as the
from-scratch pass computes them: a revision coming, changing or going, and an extension that
comes after the revisions it owns."""

from __future__ import annotations

from v1_objects import DEPLOYMENT_PROBE_FAILURE, condition, extension, object_set

from olmtui.model.incremental.engine import Model
from olmtui.model.incremental.health import health_findings, merged_findings
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.store import Store


def _codes(store: Store, index: HealthIndex, model: Model) -> set[tuple[str, str]]:
    fresh = merged_findings(
        [],
        model=model.findings(),
        health=health_findings(store, [], model.subscriptions()),
        unreadable=store.unreadable,
        read_namespaces=store.read_namespaces,
    )
    followed = list(index.findings())
    assert followed == fresh
    return {
        (f.code, f.name)
        for f in followed
        if f.code.startswith(("ClusterObjectSet", "ClusterExtensionDeadline"))
    }


def test_revisions_are_followed_as_they_change() -> None:
    store = Store()
    model = Model(store)
    index = HealthIndex(store, model, lambda: [], [])
    # The revision first, its extension after: the finding appears with the extension.
    store.apply("ADDED", object_set(state="rolling-out", probe=DEPLOYMENT_PROBE_FAILURE))
    assert _codes(store, index, model) == set()
    rolling = extension(
        conditions=[condition("Progressing", "True", "RollingOut", "Revision 2 is rolling out.")]
    )
    store.apply("ADDED", rolling)
    assert _codes(store, index, model) == {("ClusterObjectSetProbeFailure", "argocd-2")}
    store.apply("MODIFIED", object_set(state="deadline", probe=DEPLOYMENT_PROBE_FAILURE))
    assert _codes(store, index, model) == {
        ("ClusterObjectSetProbeFailure", "argocd-2"),
        ("ClusterExtensionDeadlineExceeded", "argocd"),
    }
    store.apply("MODIFIED", object_set())
    assert _codes(store, index, model) == set()
