"""A must-gather's own objects (CSVs, Subscriptions, InstallPlans, OperatorGroups, Namespaces)
are read line by line (``plain_documents``) and give exactly what the full parse gives: the
same values of the same types in the same order, the same problems on the same lines."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import yaml
from evidence_lists_support import EDIT_PIECES, assert_same, go_yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.sources.snapshots import plain_documents, snapshot_documents
from olmtui.sources.snapshots.snapshot_documents import load_yaml, parse_documents
from olmtui.store import CSV

DATA = Path(__file__).parents[2] / "data"
#: Files ``oc adm must-gather`` wrote (tests/data/SOURCES.md): one object each, Go's encoder.
MUST_GATHER_FILES = sorted(
    p for p in DATA.rglob("*.yaml") if "/namespaces/" in p.as_posix() and p.is_file()
)


def typed(value: Any) -> Any:
    """The value with every type and every key order spelled out (``True == 1`` and
    ``{a, b} == {b, a}`` in Python; not here)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    return (type(value).__name__, value)


def assert_same_as_full(data: bytes) -> list[bool]:
    """The fast path gives the loader and the cache what the full parse gives
    (``assert_same``), and each document ``plain_document`` read is exactly the full parse's
    value of it, types and order included; whether each document was read so."""
    read: list[tuple[bytes, Any]] = []

    def recorded(chunk: bytes, load: Any) -> Any:
        value = plain_documents.plain_document(chunk, load)
        read.append((chunk, value))
        return value

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(snapshot_documents, "plain_document", recorded)
        assert_same(data)
    for chunk, value in read:
        if value is not None:
            assert typed(value) == typed(load_yaml(chunk))
    return [value is not None for _, value in read]


def test_the_real_must_gathers_objects_are_read_line_by_line_as_the_full_parse_reads_them() -> None:
    assert len(MUST_GATHER_FILES) > 400
    plainly: list[bool] = []
    for path in MUST_GATHER_FILES:
        plainly += assert_same_as_full(path.read_bytes())
    assert len(plainly) > 100
    assert all(plainly)  # none of those not copies needs the full parse


CSV_OBJECT: dict[str, Any] = {
    "apiVersion": "operators.coreos.com/v1alpha1",
    "kind": CSV,
    "metadata": {
        "annotations": {
            "alm-examples": ('[\n  {\n    "kind": "EtcdCluster",\n    "spec": {"size": 3}\n  }\n]'),
            "capabilities": "Full Lifecycle",
            "createdAt": "2019-02-28 01:03:00",
        },
        "name": "etcdoperator.v0.9.4",
        "namespace": "operators",
    },
    "spec": {
        "description": "etcd is a distributed key value store.\n\n## Features\n- HA",
        "install": {
            "spec": {
                "deployments": [
                    {
                        "name": "etcd-operator",
                        "spec": {
                            "replicas": 1,
                            "template": {
                                "spec": {
                                    "containers": [
                                        {
                                            "command": ["etcd-operator", "--create-crd=false"],
                                            "image": "quay.io/coreos/etcd-operator@sha256:66a3",
                                            "name": "etcd-operator",
                                        }
                                    ]
                                }
                            },
                        },
                    }
                ]
            },
            "strategy": "deployment",
        },
        "installModes": [
            {"supported": True, "type": "OwnNamespace"},
            {"supported": False, "type": "AllNamespaces"},
        ],
        "maturity": "alpha",
        "replaces": "etcdoperator.v0.9.2",
        "version": "0.9.4",
    },
    "status": {"phase": "Succeeded", "reason": "InstallSucceeded"},
}
CSV_TEXT = go_yaml(CSV_OBJECT)
#: The same CSV as PyYAML writes it (``bench/gen_snapshot.py``): long texts double-quoted
#: with escapes, folded with ``\\`` line ends; an unquoted timestamp.
DUMPED_TEXT = "---\n" + yaml.safe_dump(
    {
        **CSV_OBJECT,
        "spec": {
            **CSV_OBJECT["spec"],
            "description": "etcd is a distributed key value store.\n\n## Features\n- HA\tand more",
        },
        "metadata": {
            **CSV_OBJECT["metadata"],
            "annotations": {
                **CSV_OBJECT["metadata"]["annotations"],
                "createdAt": dt.datetime(2019, 2, 28, 1, 3),
                "escapes": "tab\there é \u2028 \x85 \x07 ‰ \U0001f600 ends with a blank ",
            },
        },
    },
    width=60,
)


@pytest.mark.parametrize("text", [CSV_TEXT, DUMPED_TEXT], ids=["oc", "pyyaml"])
def test_a_csv_as_oc_or_pyyaml_writes_it_is_read_line_by_line(text: str) -> None:
    assert assert_same_as_full(text.encode()) == [True]


def test_a_csv_as_pyyaml_writes_it_needs_no_part_parsed_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed_alone: list[bytes] = []

    def spy(chunk: bytes) -> Any:
        parsed_alone.append(chunk)
        return load_yaml(chunk)

    monkeypatch.setattr(snapshot_documents, "load_yaml", spy)
    [document] = parse_documents(DUMPED_TEXT.encode(), json_format=False)
    assert document.value["metadata"]["annotations"]["createdAt"] == dt.datetime(2019, 2, 28, 1, 3)
    assert parsed_alone == []


def test_what_the_lines_do_not_say_plainly_is_parsed_alone_once_libyaml_found_it_valid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed_alone: list[bytes] = []

    def spy(chunk: bytes) -> Any:
        parsed_alone.append(chunk.split(b"\n")[0].strip())
        return load_yaml(chunk)

    monkeypatch.setattr(snapshot_documents, "load_yaml", spy)
    data = CSV_TEXT.replace("  version: 0.9.4", "  version: 0.9.4 # a comment").encode()
    [document] = parse_documents(data, json_format=False)
    assert document.value["spec"]["version"] == "0.9.4"
    # the comment's value alone, and the text literal with its blank line
    assert parsed_alone == [b"description: |-", b"version: 0.9.4 # a comment"]


#: Documents, or edits of the CSV, that take the full parse, or part of it, or fail it.
EDITS: dict[str, str] = {
    "comment-line": "# a comment\n" + CSV_TEXT,
    "document-end": CSV_TEXT + "...\n",
    "directive": "%YAML 1.1\n" + CSV_TEXT,
    "tag": CSV_TEXT.replace("spec:\n  description", "spec: !!map\n  description", 1),
    "anchor-alias": CSV_TEXT.replace("maturity: alpha", "maturity: &m alpha\n  stage: *m"),
    "anchor-alone": CSV_TEXT.replace("maturity: alpha", "maturity: &m alpha"),
    # libyaml refuses a second anchor of one name; each part alone would not know
    "duplicate-anchor": CSV_TEXT.replace("maturity: alpha", "maturity: &m alpha").replace(
        "replaces: etcdoperator", "replaces: &m etcdoperator"
    ),
    "duplicate-key": CSV_TEXT.replace("maturity: alpha", "maturity: alpha\n  maturity: beta"),
    "crlf": CSV_TEXT.replace("\n", "\r\n"),
    "byte-order-mark": "\ufeff" + CSV_TEXT,
    "tab": CSV_TEXT.replace("  maturity: alpha", "\tmaturity: alpha"),
    "escapes": CSV_TEXT.replace("maturity: alpha", 'maturity: "al\\tpha\\u00e9"'),
    "timestamp": CSV_TEXT.replace("maturity: alpha", "maturity: 2021-09-13T10:00:00Z"),
    "bad-date": CSV_TEXT.replace("maturity: alpha", "maturity: 2021-13-45"),
    "float": CSV_TEXT.replace("replicas: 1", "replicas: 1.5"),
    "octal": CSV_TEXT.replace("replicas: 1", "replicas: 012"),
    "hex": CSV_TEXT.replace("replicas: 1", "replicas: 0x1f"),
    "huge-int": CSV_TEXT.replace("replicas: 1", "replicas: " + "9" * 40),
    "non-ascii": CSV_TEXT.replace("maturity: alpha", "maturity: älpha"),
    "flow-map": CSV_TEXT.replace("maturity: alpha", "maturity: {a: 1, b: [x]}"),
    "flow-key": CSV_TEXT.replace("maturity: alpha", "? [a]\n  : 1"),
    "boolean-key": CSV_TEXT.replace("maturity: alpha", "on: alpha"),
    # libyaml wants a key's ``:`` within 1,024 characters of its start
    "long-key": CSV_TEXT.replace("maturity: alpha", "k" * 1030 + ": alpha"),
    "long-label": CSV_TEXT.replace(
        "  name: etcdoperator", "  labels:\n    " + "k" * 1100 + ": x\n  name: etcdoperator"
    ),
    "long-key-alone": "---\na: 1\n" + "k" * 1030 + ": x\n",
    "longest-key": CSV_TEXT.replace("maturity: alpha", "k" * 1000 + ": alpha"),
    "folded-plain": CSV_TEXT.replace("maturity: alpha", "maturity: one two\n    three"),
    "literal-blank-end": CSV_TEXT.replace(
        "      ]\n    capabilities", "      ]\n      \n    capabilities"
    ),
    "literal-blank-first": CSV_TEXT.replace("alm-examples: |-\n", "alm-examples: |-\n        \n"),
    "keep-literal": CSV_TEXT.replace("status:\n", "tail: |+\n  kept\n\nstatus:\n"),
    "unclosed-quote": CSV_TEXT.replace("maturity: alpha", "maturity: 'alpha"),
    "unclosed-double": CSV_TEXT.replace("maturity: alpha", 'maturity: "alpha'),
    "bad-indent": CSV_TEXT.replace("  maturity: alpha", "   maturity: alpha"),
    "mapping-values": CSV_TEXT.replace("maturity: alpha", "maturity: a: b"),
    "trailing-blank": CSV_TEXT + "\n",
    "blank-between": CSV_TEXT.replace("status:\n", "\nstatus:\n"),
    "no-separator": CSV_TEXT.removeprefix("---\n"),
    "empty": "---\n",
    "only-comment": "---\n# nothing\n",
    "sequence": "---\n- a\n- b\n",
    "scalar": "---\nplain\n",
    "separator-content": "--- {a: 1}\n",
    "null-value": CSV_TEXT.replace("maturity: alpha", "maturity:"),
    "empty-value": CSV_TEXT.replace("maturity: alpha", "maturity: ''"),
    "unindented-sequence": CSV_TEXT.replace("status:\n", "list:\n- a\n- b: c\n  d: e\nstatus:\n"),
    "two-documents": CSV_TEXT + CSV_TEXT,
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_odd_document_gives_what_the_full_parse_gives(edit: str) -> None:
    assert_same_as_full(EDITS[edit].encode("utf-8"))


@settings(max_examples=400, deadline=None)
@given(
    where=st.floats(min_value=0, max_value=1),
    piece=st.sampled_from(EDIT_PIECES),
    cut=st.integers(min_value=0, max_value=3),
)
def test_any_small_edit_gives_what_the_full_parse_gives(where: float, piece: str, cut: int) -> None:
    at = int(where * len(CSV_TEXT))
    assert_same_as_full((CSV_TEXT[:at] + piece + CSV_TEXT[at + cut :]).encode("utf-8"))


@settings(max_examples=400, deadline=None)
@given(
    where=st.floats(min_value=0, max_value=1),
    piece=st.sampled_from([*EDIT_PIECES, "\\", '\\"', "\\x4", "\\u00e9", "\\U0011ffff", "\\q"]),
    cut=st.integers(min_value=0, max_value=3),
)
def test_any_small_edit_of_pyyaml_text_gives_what_the_full_parse_gives(
    where: float, piece: str, cut: int
) -> None:
    at = int(where * len(DUMPED_TEXT))
    assert_same_as_full((DUMPED_TEXT[:at] + piece + DUMPED_TEXT[at + cut :]).encode("utf-8"))
