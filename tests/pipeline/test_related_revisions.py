"""The object detail's related objects for OLM v1 revisions (R-V1-24): a ClusterExtension lists
its revisions, a revision its ClusterExtension."""

from __future__ import annotations

from pathlib import Path

from simulation_support import session_of
from v1_objects import extension, object_set

from olmtui.model.records.types import ObjectRef


def test_an_extension_and_its_revisions_relate(tmp_path: Path) -> None:
    objects = [extension(), object_set("argocd-1", revision=1), object_set("argocd-2")]
    analysis = session_of(objects, tmp_path).analysis
    assert [
        (how, ref.name)
        for how, ref in analysis.related(ObjectRef("ClusterExtension", "", "argocd"))
        if how == "revision"
    ] == [("revision", "argocd-1"), ("revision", "argocd-2")]
    assert analysis.related(ObjectRef("ClusterObjectSet", "", "argocd-2")) == [
        ("revision of", ObjectRef("ClusterExtension", "", "argocd"))
    ]
