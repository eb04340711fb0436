"""The fast path for copied CSVs (``sources/snapshots/fast_yaml``) changes nothing olmtui keeps:
every snapshot in tests/data, a generated one, a tarball and handcrafted tricky copies load into
the same store, the same load result and the same ``check --output json`` report through
the fast path as through the full parse of every document."""

from __future__ import annotations

import os
import sys
import tarfile
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from data_paths import DATA, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from olmtui.cli import build_parser
from olmtui.commands.check import check
from olmtui.errors import UsageError
from olmtui.report import dumps
from olmtui.sources.snapshots import fast_yaml, parallel_load
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.sources.snapshots.snapshot_documents import load_yaml
from olmtui.sources.snapshots.snapshot_files import path_content
from olmtui.store import KINDS, Store

sys.path.insert(0, str(ROOT / "bench"))
from gen_snapshot import Sizes, generate


@contextmanager
def full_parse() -> Iterator[None]:
    """Every document parsed in full, as before the fast path."""
    cut = fast_yaml.cut
    fast_yaml.cut = lambda _: None
    try:
        yield
    finally:
        fast_yaml.cut = cut


def loaded(paths: list[Path]) -> Any:
    """Everything a load leaves: each kind's objects by slot and the load result, or the
    usage error it raised."""
    store = Store()
    try:
        result = load_snapshot(paths, store)
    except UsageError as exc:
        return ("UsageError", str(exc))
    return {kind: dict(store.slots(kind)) for kind in KINDS}, result


def assert_same_load(paths: list[Path]) -> None:
    fast = loaded(paths)
    with full_parse():
        full = loaded(paths)
    assert fast == full


def report_of(paths: list[Path]) -> str:
    args = build_parser().parse_args(["check", *map(str, paths), "--output", "json"])
    return dumps(check(args).report)


def assert_same_report(paths: list[Path]) -> None:
    fast = report_of(paths)
    with full_parse():
        assert report_of(paths) == fast


TRIAGE = sorted((DATA / "triage").glob("*/cluster.yaml"))
MUST_GATHERS = sorted(p for p in (DATA / "must-gather/must-gather-clean").iterdir() if p.is_dir())


def snapshot_paths() -> list[Path]:
    """Every snapshot file and tree in tests/data (catalog content aside)."""
    found = [
        *sorted((DATA / "snapshots").iterdir()),
        *MUST_GATHERS,
        *sorted((DATA / "cluster").iterdir()),
        *TRIAGE,
    ]
    for folder in ("health", "store", "model", "ui", "apiserver"):
        found.extend(sorted((DATA / folder).rglob("*.yaml")))
        found.extend(sorted((DATA / folder).rglob("*.json")))
    found = [p for p in found if p.suffix in (".yaml", ".json") or p.is_dir()]
    # The fuzz corpora: the hostile documents and the sample every wrong-typed
    # field is set on (tests/robustness/test_malformed_fuzz.py)
    for corpus in (DATA / "hostile", DATA / "malformed"):
        found.extend(sorted(p for p in corpus.iterdir() if p.suffix in (".yaml", ".json")))
    return found


@pytest.mark.parametrize("path", snapshot_paths(), ids=lambda p: str(p.relative_to(DATA)))
def test_every_test_snapshot_loads_the_same_fast_and_in_full(path: Path) -> None:
    assert_same_load([path])


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("generated")
    generate(root, Sizes(namespaces=6, global_operators=3, single_operators=3, subscriptions=4))
    return root


def test_a_generated_snapshot_and_its_report_are_the_same_fast_and_in_full(
    generated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_same_load([generated])
    assert_same_report([generated])
    copies: list[object] = []
    copy_of = fast_yaml.copy_of

    def counted(*args: Any) -> Any:
        copies.append(copy_of(*args))
        return copies[-1]

    monkeypatch.setattr(fast_yaml, "copy_of", counted)
    loaded([generated])
    assert len(copies) >= 15 and None not in copies  # the comparisons had a fast side
    with full_parse():
        copies.clear()
        loaded([generated])
        assert copies == []


def test_a_tarball_of_a_must_gather_and_its_report_are_the_same(tmp_path: Path) -> None:
    archive = tmp_path / "mg.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(MUST_GATHERS[0], arcname="must-gather")
    assert_same_load([archive])
    assert_same_report([archive])


def test_the_must_gathers_and_triage_reports_are_the_same() -> None:
    for path in (
        *MUST_GATHERS,
        DATA / "snapshots/must-gather-mini",
        *TRIAGE,
    ):
        assert_same_report([path])


COPY = """\
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  annotations:
    olm.operatorGroup: global-operators
    olm.operatorNamespace: openshift-operators
    alm-examples: "[\\n  {\\"kind\\": \\"X\\"}\\n]"
  creationTimestamp: '2026-11-02T09:14:03Z'
  labels:
    olm.copiedFrom: openshift-operators
  name: etcd.v0.9.4
  namespace: NS
  resourceVersion: '7'
  uid: 9c4a97e2-b688-5f5f-aae9-42772769abcd
spec:
  displayName: etcd
  description: |
    A key value store.

    With a blank line.
  install:
    spec:
      deployments:
      - name: etcd-operator
        spec:
          replicas: 1
  version: 0.9.4
status:
  phase: Succeeded
  reason: Copied
  message: The operator is running in openshift-operators but is managing this namespace
  conditions:
  - phase: Succeeded
    lastTransitionTime: '2026-11-02T09:14:03Z'
"""

PARENT = """\
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: etcd.v0.9.4
  namespace: openshift-operators
  annotations:
    olm.operatorGroup: global-operators
    olm.operatorNamespace: openshift-operators
spec:
  version: 0.9.4
status:
  phase: Succeeded
  reason: InstallSucceeded
---
apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata:
  name: global-operators
  namespace: openshift-operators
status:
  namespaces: [""]
"""


def copy_in(namespace: str, text: str = COPY) -> str:
    return text.replace("namespace: NS", f"namespace: {namespace}")


#: Seven levels of ten aliases each: ten million nodes in a few lines.
_ALIAS_BOMB = "  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "\n".join(
    f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)
)

#: Each a change to a copy's text that the fast path must notice (or that must not matter).
TRICKY: dict[str, tuple[str, str]] = {
    "comment at column 0": ("spec:\n", "# a comment\nspec:\n"),
    "flow metadata": (
        "metadata:\n  annotations:",
        "metadata: {name: etcd.v0.9.4, namespace: NS, labels: {olm.copiedFrom: x}}\nmeta2:",
    ),
    "anchor in metadata, alias in spec": ("  name: etcd", "  name: &n etcd"),
    "alias to metadata": ("  displayName: etcd", "  displayName: *n"),
    "undefined alias": ("  displayName: etcd", "  displayName: *nowhere"),
    "quote across a section line": ("  displayName: etcd", '  displayName: "etcd\nstatus: x"'),
    "status twice": ("status:\n  phase: Succeeded", "status: {phase: Failed}\nstatus:\n  phase: X"),
    "spec twice": ("spec:\n", "spec: [1]\nspec:\n"),
    "spec a list": ("spec:\n  displayName: etcd", "spec:\n- displayName: etcd\nx:"),
    "spec a scalar": ("spec:\n", "spec: 3\nspec2:\n"),
    "spec null": ("spec:\n", "spec:\nother:\n"),
    "status a list": ("status:\n", "status: [1]\nstatus2:\n"),
    "status null": ("status:\n  phase", "status:\nstatus3:\n  phase"),
    "impossible date in spec": ("  version: 0.9.4", "  version: 0.9.4\n  when: 2021-13-45"),
    "impossible date in metadata": ("  resourceVersion: '7'", "  resourceVersion: 2021-13-45"),
    "unknown tag in spec": ("  version: 0.9.4", "  version: !custom 0.9.4"),
    "bad binary in spec": ("  version: 0.9.4", "  version: !!binary '@@@'"),
    "merge key in spec": ("  install:\n", "  install:\n    <<: {a: 1}\n"),
    "bad merge key in spec": ("  install:\n", "  install:\n    <<: 3\n"),
    "CRLF": ("\n", "\r\n"),
    "document end marker": ("spec:\n", "...\nspec:\n"),
    "line separator before a key": ("  uid: 9c4a", "  uid: x\u2028status: 9c4a"),
    "next line before a key": ("  uid: 9c4a", "  uid: x\u0085kind: 9c4a"),
    "tab at column 0": ("spec:\n", "spec:\n\tx: 1\n"),
    "complex key": ("spec:\n", "? spec\n: {}\nspec0:\n"),
    "sequence at column 0": ("  conditions:\n  - phase", "  conditions:\n- phase"),
    "non-string metadata key": ("  uid: 9c4a", "  1: x\n  uid: 9c4a"),
    "labels a list": ("  labels:\n    olm", "  labels:\n  - olm"),
    "label null": ("olm.copiedFrom: openshift-operators", "olm.copiedFrom: null"),
    "not a copy": ("    olm.copiedFrom: openshift-operators", "    other: x"),
    "copy only by reason": ("    olm.copiedFrom: openshift-operators", "    o: copiedFrom"),
    "kind in flow": ("kind: ClusterServiceVersion\n", "kind: [ClusterServiceVersion]\n"),
    "top-level key unknown": ("spec:\n", "extra: 1\nspec:\n"),
    "first line indented": ("apiVersion", " apiVersion"),
    "blank line first": ("apiVersion", "\napiVersion"),
    "bad UTF-8 in spec": ("  version: 0.9.4", "  version: 0.9.4\xff"),
    "key with value on its line": ("spec:\n  displayName: etcd", "spec: {displayName: etcd}\ns:"),
    "directive": ("apiVersion", "%YAML 1.1\n---\napiVersion"),
    "status message a mapping": ("  message: The", "  message: {a: 1}\n  m: The"),
    "empty status": ("status:\n  phase: Succeeded\n", "status: {}\nstatus4:\n  phase: S\n"),
    # The whole value checked (aliases, depth): the full parse refuses these.
    "spec nested too deep": (
        "  version: 0.9.4",
        "  version: 0.9.4\n  d: " + "[" * 1100 + "]" * 1100,
    ),
    "alias bomb in spec": ("  version: 0.9.4", "  version: 0.9.4\n" + _ALIAS_BOMB),
    "many brackets in a string": (
        "  version: 0.9.4",
        "  version: 0.9.4\n  x: '" + "[" * 1200 + "'",
    ),
    "ampersand and star in spec": ("  displayName: etcd", "  displayName: etcd & *bold*"),
    "anchor and alias in spec": ("  version: 0.9.4", "  version: &v 0.9.4\n  again: *v"),
    # The metadata cut at its own keys (labels and annotations remembered by their bytes).
    "anchor in annotations, alias in labels": (
        "    olm.operatorGroup: global-operators\n",
        "    olm.operatorGroup: &g global-operators\n",
    ),
    "alias in labels": ("    olm.copiedFrom: openshift-operators", "    o: *g"),
    "anchor in labels, alias in name": (
        "    olm.copiedFrom: openshift-operators\n  name: etcd.v0.9.4",
        "    olm.copiedFrom: &l openshift-operators\n  name: *l",
    ),
    "anchor in name, redefined in uid, alias after": (
        "  name: etcd.v0.9.4\n  namespace: NS\n  resourceVersion: '7'",
        "  name: &a etcd.v0.9.4\n  namespace: NS\n  resourceVersion: *a",
    ),
    "metadata key at column 1": ("  uid: 9c4a", " x: 1\n  uid: 9c4a"),
    "metadata comment at its indentation": ("  uid: 9c4a", "  # c\n  uid: 9c4a"),
    "metadata key twice": ("  uid: 9c4a", "  name: other\n  uid: 9c4a"),
    "labels twice": ("  uid: 9c4a", "  labels: {a: b}\n  uid: 9c4a"),
    "quoted metadata key": ("  uid: 9c4a", '  "uid": 9c4a'),
    "quote across a metadata key": ("  resourceVersion: '7'", "  resourceVersion: '7\n  other: x'"),
    "merge key in metadata": ("  uid: 9c4a", "  <<: {zz: 1}\n  uid: 9c4a"),
    "complex key in metadata": ("  uid: 9c4a", "  ? zz\n  : 1\n  uid: 9c4a"),
    "block scalar with an indentation indicator": ("  uid: 9c4a", "  zz: |1\n   x\n  uid: 9c4a"),
    "a date in labels": (
        "    olm.copiedFrom: openshift-operators",
        "    olm.copiedFrom: openshift-operators\n    when: 2021-01-01",
    ),
    "a map in labels": (
        "    olm.copiedFrom: openshift-operators",
        "    olm.copiedFrom: openshift-operators\n    nested: {a: 1}",
    ),
    "flow labels": (
        "  labels:\n    olm.copiedFrom: openshift-operators",
        "  labels: {olm.copiedFrom: openshift-operators}",
    ),
    "tab before a metadata key": ("  uid: 9c4a", "\tx: 1\n  uid: 9c4a"),
    "boolean metadata key": ("  uid: 9c4a", "  true: 1\n  uid: 9c4a"),
    "null metadata key": ("  uid: 9c4a", "  null: 1\n  uid: 9c4a"),
    "metadata indented by four": ("  annotations:\n", "    zz: 1\n  annotations:\n"),
    # A remembered spec's lines are not searched again, up to the last status line.
    "a key between spec and status": ("status:\n  phase: S", "kind: X\nstatus:\n  phase: S"),
    "a second status after the spec": ("status:\n  phase: S", "status: {}\nstatus:\n  phase: S"),
    "a status line inside the spec": ("  version: 0.9.4", "  version: 0.9.4\nstatus: x\n  v: 1"),
    "spec last": ("status:\n  phase: Succeeded\n", "x-status:\n  phase: Succeeded\n"),
    # found by their length and ends: the same length and ends, another middle
    "a spec differing only in its middle": ("With a blank line.", "With a plank line."),
    # Own fields read without a parser (``simple_fields``) or left to it.
    "uid a boolean": ("  uid: 9c4a97e2-b688-5f5f-aae9-42772769abcd", "  uid: yes"),
    "resourceVersion octal": ("  resourceVersion: '7'", "  resourceVersion: 010"),
    "name double-quoted with an escape": ("  name: etcd.v0.9.4", '  name: "etcd\\x41"'),
    "name with a comment": ("  name: etcd.v0.9.4", "  name: etcd.v0.9.4 # c"),
    # A copy that its CSV's template (``copy_templates``) may be taken for.
    "a continuation line after the uid": (
        "  uid: 9c4a97e2-b688-5f5f-aae9-42772769abcd\n",
        "  uid: 9c4a97e2\n    -b688\n",
    ),
    "uid a flow mapping": ("  uid: 9c4a97e2-b688-5f5f-aae9-42772769abcd", "  uid: {a: 1}"),
    "creationTimestamp a timestamp": ("'2026-11-02T09:14:03Z'", "2026-11-02T09:14:03Z"),
    "many brackets in the uid": (
        "  uid: 9c4a97e2-b688-5f5f-aae9-42772769abcd",
        "  uid: '" + "[" * 1200 + "'",
    ),
    "a field of its own more": ("  uid: 9c4a", "  generation: 2\n  uid: 9c4a"),
    "no uid": ("  uid: 9c4a97e2-b688-5f5f-aae9-42772769abcd\n", ""),
    "uid at column 1": ("  uid: 9c4a", " uid: 9c4a"),
    "a key misspelt": ("  resourceVersion: '7'", "  resourceVersio: '7'"),
    "a status line more": ("  reason: Copied\n", "  reason: Copied\n  extra: x\n"),
    "annotations deeper than the other keys": (
        "  annotations:\n    olm",
        "  annotations:\n      olm",
    ),
}


#: A copy whose annotations are long enough to be found again by their first bytes
#: (``fast_yaml.known_field``: the alm-examples of a real CSV are kilobytes).
LONG_COPY = COPY.replace(
    "  annotations:\n", "  annotations:\n    long: " + "x" * 300 + "\n    more: y\n", 1
)

#: Each a change to a long-annotations copy whose remembered annotations must not be taken
#: for its own when they are not exactly its field.
TRICKY_LONG: dict[str, tuple[str, str]] = {
    "an entry after the remembered ones": (
        "  creationTimestamp:",
        "    extra: z\n  creationTimestamp:",
    ),
    "a continuation line after them": (
        "  creationTimestamp:",
        "     continued\n  creationTimestamp:",
    ),
    "a blank line after them": ("  creationTimestamp:", "\n  creationTimestamp:"),
    "a comment line after them": ("  creationTimestamp:", "  # c\n  creationTimestamp:"),
    "a deeper comment after them": ("  creationTimestamp:", "     # c\n  creationTimestamp:"),
    "a shorter value": ("x" * 300, "x" * 299),
    "a longer value": ("x" * 300, "x" * 301),
    "annotations last": ("  uid: 9c4a97e2-b688-5f5f-aae9-42772769abcd\n", "  uid: u\n  z: 1\n"),
    "metadata indented by four": ("\n  ", "\n    "),
    "a line at column 1 after them": ("  creationTimestamp:", " x: 1\n  creationTimestamp:"),
    "a tab after them": ("  creationTimestamp:", "\t\n  creationTimestamp:"),
}


def tricky_documents(change: tuple[str, str], base: str = COPY) -> list[bytes]:
    """A parent, two plain copies (the second hits the remembered spec, status and
    annotations), the changed copy, and a plain copy after it."""
    old, new = change
    assert old in base
    changed = copy_in("ns-x", base.replace(old, new, 1))
    docs = [PARENT, copy_in("ns-a", base), copy_in("ns-b", base), changed, copy_in("ns-c", base)]
    return [
        ("---\n" + (d if d.endswith("\n") else d + "\n"))
        .encode("utf-8", errors="surrogateescape")
        .replace(b"\xc3\xbf", b"\xff")
        for d in docs
    ]


def tricky_file(change: tuple[str, str]) -> bytes:
    """:func:`tricky_documents` as one file."""
    return b"".join(tricky_documents(change))


def write_layout(documents: list[bytes], layout: str, folder: Path) -> list[Path]:
    """The documents in one file, or each in a file of its own (a must-gather's layout:
    a copy read whole, never cut into documents)."""
    if layout == "one file":
        path = folder / "copies.yaml"
        path.write_bytes(b"".join(documents))
        return [path]
    paths = [folder / f"{at:02}.yaml" for at in range(len(documents))]
    for path, document in zip(paths, documents, strict=True):
        path.write_bytes(document)
    return paths


LAYOUTS = ("one file", "a file each")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", sorted(TRICKY))
def test_a_tricky_copy_loads_as_the_full_parse_reads_it(
    name: str, layout: str, tmp_path: Path
) -> None:
    assert_same_load(write_layout(tricky_documents(TRICKY[name]), layout, tmp_path))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", sorted(TRICKY_LONG))
def test_a_copy_beside_remembered_long_annotations_loads_as_the_full_parse_reads_it(
    name: str, layout: str, tmp_path: Path
) -> None:
    documents = tricky_documents(TRICKY_LONG[name], LONG_COPY)
    assert_same_load(write_layout(documents, layout, tmp_path))


def test_long_annotations_are_found_again_by_their_bytes() -> None:
    """The second copy's annotations are the first's (the same object), found without
    searching their lines, and its own fields its own."""
    first, second = (
        fast_yaml.copied_csv(copy_in(ns, LONG_COPY).encode(), load_yaml) for ns in ("l1", "l2")
    )
    assert first is not None and second is not None
    assert second["metadata"]["annotations"] is first["metadata"]["annotations"]
    assert second["metadata"]["annotations"]["long"] == "x" * 300
    assert second["metadata"]["namespace"] == "l2"
    cuts = [fast_yaml.cut(copy_in(ns, LONG_COPY).encode()) for ns in ("l3", "l4")]
    annotations = [dict(c.fields or [])["annotations"] for c in cuts if c is not None]
    assert len(annotations) == 2
    assert annotations[1] is annotations[0]  # the remembered bytes, not a new slice


def test_many_specs_alike_at_both_ends_are_each_found_again() -> None:
    """Twelve CSVs whose specs have one length and the same first and last bytes (a family
    of operators), their copies a namespace at a time: from the second namespace on, every
    copy's spec is found as the object remembered (not cut and hashed again), and each copy
    still reads its own CSV's status."""
    specs = [
        COPY.replace("With a blank line.", f"With line {at:02} here.").replace(
            "reason: Copied", f"reason: Copied{at:02}"
        )
        for at in range(12)
    ]
    found: dict[int, list[bytes]] = {}
    for namespace in ("alike-1", "alike-2", "alike-3"):
        for at, text in enumerate(specs):
            document = copy_in(namespace, text).encode()
            document_cut = fast_yaml.cut(document)
            assert document_cut is not None
            obj = fast_yaml.copy_of(document_cut, load_yaml)
            assert obj is not None and obj["status"]["reason"] == f"Copied{at:02}"
            found.setdefault(at, []).append(document_cut.sections["spec"])
    for at, (first, second, third) in found.items():
        assert first == second == third
        assert second is third, f"spec {at} cut again in a later namespace"


def _without_templates(document: bytes) -> fast_yaml.Cut | None:
    """The document's cut as made with no template (those remembered put back after)."""
    templates = dict(fast_yaml._remembered.templates)
    fast_yaml._remembered.templates.clear()
    try:
        return fast_yaml.cut(document)
    finally:
        fast_yaml._remembered.templates.clear()
        fast_yaml._remembered.templates.update(templates)


def test_a_copy_is_cut_by_its_csv_template_as_it_is_cut_without() -> None:
    """From a CSV's second copy on, its copies are found by its template (``copy_templates``),
    whatever the length of their own fields, and cut exactly as without one: the same
    sections and fields, the same nesting bound, the same value read."""
    text = (
        COPY.replace("etcd.v0.9.4", "templated.v1")
        .replace("9c4a97e2", "{uid}")
        .replace("With a blank line.", "With a spec no other test has.")
    )
    own = [("t-a", "0"), ("t-b", "1"), ("t-long-namespace-name", "22"), ("t", "333"), ("tt", "4")]
    seen = []
    for namespace, uid in own:
        document = ("---\n" + copy_in(namespace, text).replace("{uid}", uid)).encode()
        templated = fast_yaml._remembered.templated(document)
        document_cut = fast_yaml.cut(document)
        expected = _without_templates(document)
        assert document_cut is not None and document_cut == expected
        assert document_cut.sections["metadata"] == expected.sections["metadata"]
        obj = fast_yaml.copy_of(document_cut, load_yaml)
        assert obj is not None and obj == fast_yaml.copy_of(expected, load_yaml)
        assert obj["metadata"]["namespace"] == namespace
        assert obj["metadata"]["uid"].startswith(uid)
        seen.append(templated is not None)
    assert seen == [False, False, True, True, True]


@pytest.mark.parametrize(
    ("after", "found"),
    [
        ("", True),
        ("  name: n\n", True),
        (" x: 1\n", True),
        ("    extra: z\n", False),
        ("     continued\n", False),
        ("\n  name: n\n", False),
    ],
)
def test_remembered_annotations_are_a_field_only_when_a_shallow_line_ends_them(
    after: str, found: bool
) -> None:
    """``known_field`` takes the remembered bytes for the field only when what follows them
    is the end or a line no deeper than the field's key: anything deeper is the field's.
    (Annotations of their own: no other test's are remembered starting so.)"""
    copy = LONG_COPY.replace("x" * 300, "w" * 300)
    assert fast_yaml.copied_csv(copy_in("l5", copy).encode(), load_yaml) is not None
    document_cut = fast_yaml.cut(copy_in("l6", copy).encode())
    assert document_cut is not None and document_cut.fields is not None
    remembered = dict(document_cut.fields)["annotations"]
    body = remembered + after.encode()
    _key_line, shallow_line = fast_yaml.field_patterns(2)
    taken = fast_yaml._remembered.known_field(body, 0, shallow_line)
    assert (taken is remembered) if found else (taken is None)


def test_plain_copies_take_the_fast_path() -> None:
    """The fast path is used at all (a copy's spec never reaches the store either way)."""
    obj = fast_yaml.copied_csv(("---\n" + copy_in("ns-q")).encode(), load_yaml)
    assert obj is not None
    assert "spec" not in obj
    assert obj["status"] == {
        "phase": "Succeeded",
        "reason": "Copied",
        "message": "The operator is running in openshift-operators but is managing this namespace",
    }
    assert obj["metadata"]["namespace"] == "ns-q"


def test_copies_share_their_labels_and_annotations_read_once() -> None:
    """The metadata is cut at its keys: a second copy's labels and annotations are the first
    copy's objects (remembered by their bytes), its own fields its own."""
    first, second = (
        fast_yaml.copied_csv(("---\n" + copy_in(ns)).encode(), load_yaml) for ns in ("n1", "n2")
    )
    assert first is not None and second is not None
    for field in ("labels", "annotations"):
        assert second["metadata"][field] is first["metadata"][field]
    assert list(second["metadata"]) == list(first["metadata"])
    assert (first["metadata"]["namespace"], second["metadata"]["namespace"]) == ("n1", "n2")


#: Pieces that change how YAML reads a text, inserted anywhere into a copy.
_PIECES = st.sampled_from(
    [
        '"',
        "'",
        "\n",
        "\nstatus: x\n",
        "\nspec:\n",
        "&a ",
        "*a",
        "{",
        "}",
        "[",
        "#",
        "\t",
        "\u2028",
        "\x85",
        "!!str ",
        "\n---\n",
        "\n...\n",
        "? ",
        "- ",
        ": ",
        " ",
        "|\n",
        "\\",
        "\r",
        "\ufeff",
        "\n  ",
        "\n    x: ",
        "\n labels: x\n",
    ]
)


@settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    edits=st.lists(
        st.tuples(st.integers(min_value=0, max_value=len(LONG_COPY)), _PIECES),
        min_size=1,
        max_size=3,
    ),
    base=st.sampled_from([COPY, LONG_COPY]),
    layout=st.sampled_from(LAYOUTS),
)
def test_a_copy_with_random_edits_loads_as_the_full_parse_reads_it(
    edits: list[tuple[int, str]], base: str, layout: str, tmp_path: Path
) -> None:
    text = base
    for at, piece in edits:
        at = min(at, len(text))
        text = text[:at] + piece + text[at:]
    docs = [
        PARENT,
        copy_in("ns-a", base),
        copy_in("ns-b", base),  # its CSV's template from here on
        copy_in("ns-x", text),
        copy_in("ns-c", base),
    ]
    documents = [("---\n" + (d if d.endswith("\n") else d + "\n")).encode() for d in docs]
    assert_same_load(write_layout(documents, layout, tmp_path))


def test_a_load_parsed_on_two_workers_equals_the_full_parse_in_order(
    generated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parsed in a pool of worker processes, the store gets the same objects in the same
    order (file order), and the same load result, as from one process."""
    monkeypatch.setattr(parallel_load, "POOL_THRESHOLD", 0)
    pooled = Store()
    pooled_result = load_snapshot([generated], pooled, workers=2)
    with full_parse():
        alone = Store()
        alone_result = load_snapshot([generated], alone, workers=1)
    assert pooled_result == alone_result
    for kind in KINDS:
        assert list(pooled.slots(kind)) == list(alone.slots(kind))


def test_a_directory_file_goes_to_a_worker_by_path_and_comes_back_without_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory's files are read where they are parsed (a worker reads from disk, which
    costs less than their bytes through a pipe) and come back without their bytes; one
    that cannot be read (a FIFO) says why, as it does in-process."""
    (tmp_path / "a.yaml").write_text(PARENT)
    os.mkfifo(tmp_path / "b.yaml")
    listed = list(path_content(tmp_path, "snap").files)
    assert [(f.data, f.path is not None) for f in listed] == [(b"", True), (b"", True)]
    monkeypatch.setattr(parallel_load, "POOL_THRESHOLD", 0)
    pooled = list(parallel_load.parsed_files(iter(listed), workers=2))
    assert pooled == list(parallel_load.parsed_files(iter(listed), workers=1))
    assert [source.data for source, _ in pooled] == [b"", b""]
    assert pooled[0][1][0].value["kind"] == "ClusterServiceVersion"
    assert pooled[1][0].error is not None and pooled[1][1] == []


def test_a_broken_pool_leaves_the_rest_to_this_process(
    generated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers that die (here: every file's parse in a worker fails as a killed one
    would) cost time, not objects: the files not handed back are parsed in-process."""
    monkeypatch.setattr(parallel_load, "POOL_THRESHOLD", 0)

    def broken(*_: object, **__: object) -> None:
        raise BrokenProcessPool("a worker died")

    monkeypatch.setattr(parallel_load.ProcessPoolExecutor, "submit", broken)
    assert loaded([generated]) == loaded_in_process([generated])


def loaded_in_process(paths: list[Path]) -> Any:
    store = Store()
    result = load_snapshot(paths, store, workers=1)
    return {kind: dict(store.slots(kind)) for kind in KINDS}, result
