"""Reading CSVs without ``spec.install``/``icon``/``description``/``relatedImages``: the parts
kept must parse to exactly what the whole file gives, line numbers must not move."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from data_paths import DATA

from olmtui.sources.catalog.files import slim_csv_yaml

PROD = DATA / "catalogs/community-operators-prod/operators"
DROPPED = ("install", "icon", "description", "relatedImages")


def load(data: bytes) -> dict:
    return yaml.load(data, Loader=yaml.CSafeLoader)


def without_dropped(doc: dict) -> dict:
    spec = {k: v for k, v in doc["spec"].items() if k not in DROPPED}
    return {**doc, "spec": spec}


#: The published CSVs tests/data keeps whole (SOURCES.md: the others are already slimmed),
#: in both bundle layouts.
REAL_CSVS = [
    path
    for path in sorted(PROD.glob("*/*/**/manifests/*.clusterserviceversion.yaml"))
    if b"\n  install:" in path.read_bytes()
]


def test_the_whole_csvs_cover_both_bundle_layouts() -> None:
    layouts = {path.parent.parent.name == "bundle" for path in REAL_CSVS}
    assert len(REAL_CSVS) == 9 and layouts == {True, False}


@pytest.mark.parametrize("path", REAL_CSVS, ids=lambda p: str(p.relative_to(PROD)))
def test_slim_real_csv_keeps_everything_else(path: Path) -> None:
    data = path.read_bytes()
    slim = slim_csv_yaml(data)
    assert load(slim) == without_dropped(load(data))
    assert slim.count(b"\n") == data.count(b"\n")
    assert len(slim) < len(data)


TRICKY = b"""\
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: x.v1
  annotations:
    description: kept, not under spec
spec:
  keywords:
  - a
  icon:
  - base64data: AAAA
    mediatype: image/png
# a comment at column 0 inside the spec
  description: |
    text

    more text
  install:
    spec:
      deployments: []
  # an indented comment
  relatedImages:
  -
    image: quay.io/x
  replaces: x.v0
  installModes:
  - type: OwnNamespace
    supported: true
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  description: not a CSV key, but dropped the same way
  group: example.com
"""


def test_slim_handles_sequences_at_key_indent_comments_and_documents() -> None:
    docs = list(yaml.safe_load_all(slim_csv_yaml(TRICKY)))
    assert docs[0]["spec"] == {
        "keywords": ["a"],
        "replaces": "x.v0",
        "installModes": [{"type": "OwnNamespace", "supported": True}],
    }
    assert docs[0]["metadata"]["annotations"] == {"description": "kept, not under spec"}
    assert docs[1]["spec"] == {"group": "example.com"}


def test_slim_keeps_crlf_files_parsable() -> None:
    crlf = TRICKY.replace(b"\n", b"\r\n")
    docs = list(yaml.safe_load_all(slim_csv_yaml(crlf)))
    assert docs[0]["spec"]["replaces"] == "x.v0"
    assert "install" not in docs[0]["spec"]


def test_slim_leaves_files_without_a_csv_alone() -> None:
    data = b"spec:\n  install: kept\n"
    assert slim_csv_yaml(data) == data
