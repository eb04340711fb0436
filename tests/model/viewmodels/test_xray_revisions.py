"""The X-ray tree of a ClusterExtension (R-V1-24): its revisions newest first, each with its
lifecycle state, Progressing reason and phases, the phase a probe failure names marked, and
the findings about each revision on its node."""

from __future__ import annotations

from v1_objects import DEPLOYMENT_PROBE_FAILURE, condition, extension, object_set

from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.v1.extensions import decode_extension
from olmtui.model.rules.v1.revision_findings import revision_findings
from olmtui.model.rules.v1.revisions import extension_revisions
from olmtui.model.viewmodels.xray import extension_tree
from olmtui.store import Store


def test_an_extension_past_its_deadline_in_the_xray() -> None:
    ext = extension(
        progress_deadline_minutes=10,
        conditions=[
            condition("Installed", "True", "Succeeded", "Installed bundle x successfully"),
            condition("Progressing", "False", "ProgressDeadlineExceeded", "not rolled out"),
        ],
    )
    store = Store()
    store.apply_many(
        [
            ext,
            object_set("argocd-1", revision=1),
            object_set(state="deadline", probe=DEPLOYMENT_PROBE_FAILURE),
        ]
    )
    revisions = extension_revisions(ext, list(store.list("ClusterObjectSet")))
    findings: dict[tuple[str, str, str], list] = {}
    for f in revision_findings([ext], store.list("ClusterObjectSet")):
        findings.setdefault((f.kind, f.namespace, f.name), []).append(f)
    root = extension_tree(decode_extension(ext), revisions, findings)
    assert root.ref == ObjectRef("ClusterExtension", "", "argocd")
    assert root.label.endswith("revisions 2 active (deadline exceeded)")
    assert (root.severity, root.codes) == ("error", ("ClusterExtensionDeadlineExceeded",))
    newest, oldest = root.children
    assert newest.label == "ClusterObjectSet argocd-2 #2: Active, ProgressDeadlineExceeded"
    assert (newest.severity, newest.codes) == ("warning", ("ClusterObjectSetProbeFailure",))
    assert [p.label for p in newest.children] == ["phase crds", "phase deploy (rolling out here)"]
    assert [o.label for o in newest.children[1].children] == [
        "Deployment argocd/argocd-operator-controller-manager"
    ]
    assert oldest.healthy and oldest.label.endswith("#1: Active, Succeeded")
