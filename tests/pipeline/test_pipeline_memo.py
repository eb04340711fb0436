"""The Analysis's typed slots (``pipeline/memo.py``): a value is built again only when what it
was built from moved, by stamp or by the identity of its input objects."""

from __future__ import annotations

from olmtui.pipeline.memo import Memo, ObjectsMemo


def test_a_memo_builds_once_per_stamp() -> None:
    memo: Memo[list[int]] = Memo()
    builds: list[int] = []

    def build() -> list[int]:
        builds.append(1)
        return [len(builds)]

    first = memo.get((1, 0), build)
    assert memo.get((1, 0), build) is first
    assert memo.get((2, 0), build) == [2]
    assert len(builds) == 2


def test_a_memo_built_for_a_none_stamp_is_kept_too() -> None:
    memo: Memo[object] = Memo()
    value = memo.get(None, object)
    assert memo.get(None, object) is value


def test_an_objects_memo_compares_its_inputs_by_identity() -> None:
    memo: ObjectsMemo[str] = ObjectsMemo()
    a, b = {"x": 1}, {"x": 1}
    assert memo.get((a,), lambda: "first") == "first"
    assert memo.get((a,), lambda: "again") == "first"
    assert memo.get((b,), lambda: "equal, not the same") == "equal, not the same"
    assert memo.get((), lambda: "none") == "none"
