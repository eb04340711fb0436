"""The order the suite's workers are dealt their tests in (``tests/slow_first.py``)."""

from __future__ import annotations

from data_paths import TESTS
from slow_first import SLOW, block_sizes, cost, slow_first


def test_blocks_are_dealt_as_worksteal_deals_them() -> None:
    assert block_sizes(10, 3) == [3, 3, 4]
    assert block_sizes(2, 3) == [0, 1, 1]
    assert sum(block_sizes(5061, 3)) == 5061


def test_each_block_opens_with_its_share_of_the_slow_tests_and_loses_none() -> None:
    module = "tests/robustness/test_malformed_fuzz.py::"
    ids = [f"tests/x/test_a.py::test_{n}" for n in range(9)]
    ids[2] = module + "test_every_wrong_typed_field_inside_json_text_is_read_without_a_traceback"
    ids[5] = module + "test_every_wrong_typed_field_fed_live_is_read_without_a_traceback[3]"
    ids[7] = module + "test_a_sample_of_mutated_snapshots_checks_with_exit_0_or_1_and_whole_json"
    ordered = slow_first(ids, ids, 3)
    assert sorted(ordered) == sorted(ids)
    blocks = [ordered[0:3], ordered[3:6], ordered[6:9]]
    assert [cost(block[0]) for block in blocks] == [14, 14, 7]
    fast = [nodeid for nodeid in ordered if not cost(nodeid)]
    assert fast == [nodeid for nodeid in ids if not cost(nodeid)]  # in collection order


def test_every_slow_module_named_is_a_test_module() -> None:
    assert [m for m in SLOW if not (TESTS / m).is_file()] == []
