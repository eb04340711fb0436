"""The slowest tests first on every xdist worker, so the run does not end on one of them.

``--dist worksteal`` hands each worker a contiguous block of the collection, in order, and a
worker out of tests takes the tail of the longest queue. A test of ten seconds or more that
sits late in a block starts late and the run ends on it, every other worker idle. Here each
block opens with its share of the known-slow tests (dealt longest first, each to the block
with the least work so far); the rest keep their collection order (a module's tests stay
together, its fixtures built once), so stealing only moves the short tests of a queue's tail.

The figures are seconds a test took on two cores under ``-n auto`` (a ``--durations``
profile); a test missing from :data:`SLOW` is only run in its place, never left out.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TypeVar

#: Seconds each known-slow test took (every parameter of a parametrized test alike), by
#: module under ``tests/`` and function.
SLOW: dict[str, dict[str, int]] = {
    "robustness/test_group_memory.py": {
        "test_a_check_of_bare_groups_costs_under_2450_bytes_a_group": 12,
    },
    "robustness/test_hostile_expansion.py": {
        "test_a_million_empty_objects_are_one_finding": 6,
    },
    "robustness/test_malformed_fuzz.py": {
        "test_a_sample_of_mutated_snapshots_checks_with_exit_0_or_1_and_whole_json": 14,
        "test_every_wrong_typed_field_inside_json_text_is_read_without_a_traceback": 14,
        "test_every_wrong_typed_field_fed_live_is_read_without_a_traceback": 7,
        "test_the_dashboard_shows_every_view_of_a_spoiled_snapshot": 6,
    },
    "robustness/test_hostile_text.py": {
        "test_no_escape_sequence_from_a_live_cluster_reaches_the_terminal": 11,
        "test_no_escape_sequence_from_a_snapshot_reaches_the_terminal": 9,
    },
    "ui/test_styles_install.py": {
        "test_wheel_installed_outside_the_repository_finds_its_styles": 8,
    },
    "sources/cluster/test_live_retry.py": {
        "test_a_burst_of_429_on_the_lists_is_waited_out": 8,
        "test_a_burst_of_429_on_discovery_is_waited_out": 3,
        "test_a_watch_answered_410_again_and_again_relists_with_a_growing_backoff": 3,
        "test_a_live_source_waits_out_a_burst_on_discovery": 3,
    },
    "demo/test_demo_live.py": {
        "test_demo_print_prints_changing_reports_and_exits_cleanly": 7,
    },
    "model/incremental/test_model_incremental.py": {
        "test_incremental_model_equals_a_fresh_recompute": 6,
    },
    "ui/test_ui_live_detail.py": {
        "test_changes_stay_pinned_to_the_newest_event_while_following": 6,
        "test_changes_scrolled_away_stay_put_and_count_new_events_until_end": 3,
    },
    "report/test_report_stream.py": {
        "test_check_writes_a_large_json_report_in_pieces": 6,
    },
    "commands/test_serve_browser.py": {
        "test_serve_demo_shows_the_live_demo_cluster_in_a_browser": 6,
        "test_serve_shows_the_dashboard_and_takes_keys_in_a_browser": 5,
    },
    "sources/cluster/test_live_faults_cli.py": {
        "test_a_credential_refresh_that_never_returns_is_not_doubled": 6,
        "test_a_stalled_list_is_bounded_by_the_request_timeout": 3,
    },
    "core/test_memory_frozen.py": {
        "test_objects_held_do_not_grow_with_the_events": 5,
    },
    "robustness/test_hostile_memory.py": {
        "test_the_first_build_holds_one_batch_at_a_time": 5,
        "test_a_bare_or_inferred_namespace_is_kept_by_its_name": 4,
        "test_a_cached_namespace_costs_its_object_and_name_only": 4,
        "test_a_yaml_stream_is_split_as_its_documents_are_taken": 3,
        "test_a_large_yaml_stream_lets_go_of_the_documents_taken": 3,
    },
    "sources/cluster/test_live_silence.py": {
        "test_a_quiet_watch_ends_at_its_timeout_and_is_never_suspect": 4,
    },
    "robustness/test_hostile_terminal.py": {
        "test_serve_sends_no_hostile_sequence_to_the_browser": 4,
    },
    "pipeline/test_pipeline_equivalence.py": {
        "test_every_mode_reports_the_same": 4,
    },
    "sources/cluster/test_kubeconfig_hostile.py": {
        "test_a_server_that_never_answers_is_bounded_by_the_request_timeout": 4,
        "test_a_proxy_that_never_answers_connect_is_bounded_by_the_request_timeout": 4,
        "test_an_exec_plugin_cut_off_is_killed_and_prints_nothing_after_the_line": 4,
    },
    "sources/cluster/test_live_config.py": {
        "test_check_live_against_an_unreachable_cluster_exits_2_with_one_line": 4,
    },
    "sources/cluster/test_live_random.py": {
        "test_random_changes_end_with_cache_equal_to_server": 4,
    },
    "ui/test_ui_keys.py": {
        "test_the_object_finder_lists_no_copies_and_caps_its_hits": 4,
    },
    "robustness/test_hostile_input.py": {
        "test_deep_yaml_in_the_corpus_and_depth_1000_loads": 4,
        "test_an_oversized_member_is_not_read": 3,
        "test_deep_json_is_a_finding_not_a_recursion_error": 3,
    },
    "ui/test_ui_paint.py": {
        "test_every_row_of_every_screen_paints": 3,
        "test_rows_stay_apart_at_80_and_120_columns": 3,
    },
    "pipeline/test_replay_quit_mid_load.py": {
        "test_quitting_mid_load_prints_no_traceback": 3,
    },
    "demo/test_demo_v1.py": {
        "test_check_on_the_saved_demo_with_the_served_content": 3,
    },
    "ui/test_ui_table_sort_scope.py": {
        "test_long_namespaces_are_cut_in_the_middle_and_versions_never": 3,
    },
    "model/rules/resolution/test_resolution_cases.py": {
        "test_the_same_input_gives_the_same_bytes_in_any_process": 3,
    },
    "commands/test_whatif_live.py": {
        "test_whatif_live_sends_only_gets_and_writes_nothing": 3,
    },
    "ui/test_load_progress_dashboard.py": {
        "test_a_replay_parsed_by_a_spawned_pool_loads_everything": 3,
    },
    "sources/cluster/test_live_request_timeout.py": {
        "test_a_silent_server_is_given_up_on_within_the_request_timeout": 3,
        "test_the_dashboards_start_is_bounded_by_the_request_timeout": 3,
    },
    "model/diagnosis/test_diagnosis_table.py": {
        "test_overlapping_groups_of_one_api_are_one_incident_naming_the_other_group": 3,
    },
    "ui/test_ui_snapshots.py": {
        "test_graph_screen_highlights_installed_next_and_path": 3,
    },
    "sources/cluster/test_live_faults.py": {
        "test_410_relists_and_converges": 3,
    },
    "sources/cluster/test_live_recovery.py": {
        "test_server_restart_mid_watch_recovers": 3,
    },
    "core/test_store_evidence.py": {
        "test_a_hundred_thousand_events_stay_bounded_per_involved_object": 3,
    },
    "pipeline/test_remedy_proof_property.py": {
        "test_a_simulated_remedy_clears_its_incident_on_the_snapshot": 3,
    },
}

Item = TypeVar("Item")


def cost(nodeid: str) -> int:
    """What :data:`SLOW` says ``nodeid`` takes; 0 for a test not in it."""
    module, _, function = nodeid.removeprefix("tests/").partition("::")
    return SLOW.get(module, {}).get(function.partition("[")[0], 0)


def block_sizes(count: int, workers: int) -> list[int]:
    """The blocks ``worksteal`` first deals ``count`` tests in, as it computes them."""
    sizes = []
    for remaining in range(workers, 0, -1):
        sizes.append(count // remaining)
        count -= sizes[-1]
    return sizes


def slow_first(items: Sequence[Item], nodeids: Sequence[str], workers: int) -> list[Item]:
    """``items`` (``nodeids`` their ids) in the order that opens each worker's block with
    its share of the slow tests; every item once."""
    costs = [cost(nodeid) for nodeid in nodeids]
    sizes = block_sizes(len(items), workers)
    heads: list[list[Item]] = [[] for _ in sizes]
    loads = [0] * len(sizes)
    slow = sorted((at for at, seconds in enumerate(costs) if seconds), key=lambda at: -costs[at])
    for at in slow:
        block = min(
            (b for b in range(len(sizes)) if len(heads[b]) < sizes[b]), key=lambda b: loads[b]
        )
        heads[block].append(items[at])
        loads[block] += costs[at]
    rest = iter(item for item, seconds in zip(items, costs, strict=True) if not seconds)
    ordered: list[Item] = []
    for head, size in zip(heads, sizes, strict=True):
        ordered += head
        ordered += itertools.islice(rest, size - len(head))
    return ordered
