"""What an OperatorGroup costs ``check`` (under 1 GB on any input of 100 MB or less): 400,000
bare groups in namespaces the snapshot lacks peaked at 1,119 MiB, of which ~600 bytes a group
were the cached group's three dicts and list (held by the cache and the model's group index
alike) and ~170 the keys its state and findings were kept under. Measured with
``tracemalloc`` on a few thousand groups (``bench/bench_hostile_rss.py inferred-namespaces``
measures the real run); each bound lies well between what the code costs now and what it
cost before (noted in each test).
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from model_builders import operator_group

from olmtui.pipeline.build import snapshot_session
from olmtui.report import write_json
from olmtui.store import Key, Store

#: Groups measured: enough that per-group costs drown the fixed ones. The slope between 2,000
#: and 4,000 groups is within ~100 bytes of the one between 5,000 and 10,000 (~1,350 now;
#: ~2,050 with the cache keeping each group's dicts, ~2,380 with ~330 bytes a group more held
#: besides), at two fifths of the traced work.
COUNT = 2_000


def _group(index: int) -> dict[str, Any]:
    namespace = f"ns-{index:07d}"
    return operator_group(namespace, "og", targets=[namespace], bare=True)


def _groups_yaml(count: int) -> bytes:
    return b"".join(
        b"---\napiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata:\n"
        b"  name: og\n  namespace: ns-%07d\nspec:\n  targetNamespaces:\n  - ns-%07d\n"
        % (index, index)
        for index in range(count)
    )


@pytest.fixture
def traced() -> Iterator[None]:
    tracemalloc.start()
    try:
        yield
    finally:
        tracemalloc.stop()


def test_a_bare_group_is_cached_as_its_targets(traced: None) -> None:
    """The cache's entry and a tuple of targets, ~135 bytes a group (~720 as three dicts and
    a list); read back, it is the group fed, its keys in the same order."""
    groups = [_group(index) for index in range(COUNT)]
    for group in groups:  # the cache interns namespaces: let the fed ones be those
        group["metadata"]["namespace"] = sys.intern(group["metadata"]["namespace"])
    store = Store()
    before = tracemalloc.get_traced_memory()[0]
    store.apply_many(_group(index) for index in range(COUNT))
    assert (tracemalloc.get_traced_memory()[0] - before) / COUNT < 250
    read = store.get("OperatorGroup", "ns-0000007", "og")
    assert read == groups[7]
    assert [list(read), list(read["metadata"]), list(read["spec"])] == [
        ["apiVersion", "kind", "metadata", "spec"],
        ["name", "namespace"],
        ["targetNamespaces"],
    ]
    assert sorted(store.list("OperatorGroup"), key=str) == sorted(groups, key=str)
    assert list(store.list("OperatorGroup", "ns-0000003")) == [groups[3]]
    assert dict(store.items("OperatorGroup"))[Key("OperatorGroup", "ns-0000009", "og")] == groups[9]


@pytest.mark.parametrize(
    "change",
    [
        lambda g: g.update(apiVersion="operators.coreos.com/v1alpha2"),
        lambda g: g["metadata"].update(uid="u-1"),
        lambda g: g["spec"].update(upgradeStrategy={"name": "Default"}),
        lambda g: g.update(status={"namespaces": ["ns-0000000"]}),
        lambda g: g.update(metadata={"namespace": "ns-0000000", "name": "og"}),
    ],
    ids=["v1alpha2", "uid", "strategy", "status", "key-order"],
)
def test_a_group_that_says_more_is_cached_as_it_came(change: Any) -> None:
    """Only a group :func:`bare_group` builds back exactly is kept compact; any other field,
    another apiVersion or another key order keeps the group as it came."""
    group = _group(0)
    change(group)
    store = Store()
    store.apply_many([group])
    read = store.get("OperatorGroup", "ns-0000000", "og")
    assert read == group
    assert [list(read), list(read["metadata"])] == [list(group), list(group["metadata"])]


def test_a_check_of_bare_groups_costs_under_2450_bytes_a_group(
    tmp_path: Path, traced: None
) -> None:
    """What the session holds (cache and model) and its peak while the report is built and
    written, per group: ~1,350 bytes now, ~2,650 before (the group's dicts held by the cache
    and the group index, its findings' keys). A group's state and its TargetsNotSynced
    finding (a message of ~250 bytes) stay."""
    warm, small, large = tmp_path / "warm.yaml", tmp_path / "small.yaml", tmp_path / "large.yaml"
    warm.write_bytes(_groups_yaml(10))
    small.write_bytes(_groups_yaml(COUNT))
    large.write_bytes(_groups_yaml(2 * COUNT))
    _report_peak(warm)  # what a first check loads and keeps (modules, caches) is not a group's
    # the slope between two sizes: what a group adds, without the fixed costs
    small_peak = _report_peak(small)
    assert (_report_peak(large) - small_peak) / COUNT < 2450


def _report_peak(path: Path) -> int:
    """The traced peak of ``check --output json`` on ``path`` once loaded (the load's own
    peak is the parser's, bounded in ``test_hostile_memory``), over what was held before."""
    before = tracemalloc.get_traced_memory()[0]
    session = snapshot_session([str(path)])
    tracemalloc.reset_peak()
    report = session.analysis.report(streamed=True)
    written = _Counted()
    write_json(report, written)
    peak = tracemalloc.get_traced_memory()[1] - before
    count = session.store.count("OperatorGroup")
    assert written.chars > count * 500
    assert sum(1 for f in report["findings"] if f["code"] == "TargetsNotSynced") == count
    return peak


class _Counted:
    """A text stream that counts what is written and keeps none of it."""

    def __init__(self) -> None:
        self.chars = 0

    def write(self, text: str) -> int:
        self.chars += len(text)
        return len(text)
