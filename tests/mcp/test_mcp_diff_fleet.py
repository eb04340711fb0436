"""The MCP server's ``diff`` and ``fleet`` tools, driven by the SDK's own client over stdio
(one server for the module): ``diff`` answers what ``olmtui diff --output json`` prints for
the same two inputs (and, without ``after``, compares with the server's own input), its
lists paged with cursors that return every item once; ``fleet`` answers what ``olmtui check
--fleet --output json`` prints for the same targets, a target that cannot be read being a
status (R-FLT-1); a live target is read with GET requests only."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_cli
from fleet_support import validate_fleet
from fleet_view_support import small_must_gather
from live_support import sample_objects
from mcp_support import McpClient
from model_builders import csv

from olmtui.apiserver import LoopbackAPIServer, run_in_thread
from olmtui.mcp.tools import DIFF_LISTS


def _cluster(root: Path, version: str, phase: str, image: str) -> Path:
    """One operator at ``version`` in ``phase``; a second one failed in the "before" only."""
    failing = csv("ops", "other.v1", phase="Failed", reason="InstallCheckFailed")
    extra = [failing] if version == "1.0.0" else []
    return small_must_gather(root, version, image, phase=(phase, phase), extra=extra)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("mcp-diff") / "gathers"
    return {
        "before": _cluster(folder / "before", "1.0.0", "Succeeded", "quay.io/x/index:v1"),
        "after": _cluster(folder / "after", "2.0.0", "Installing", "quay.io/x/index:v2"),
        "folder": folder,
        "missing": folder.parent / "missing",
    }


@pytest.fixture(scope="module")
def server(inputs: dict[str, Path]) -> Iterator[McpClient]:
    with McpClient([str(inputs["before"])]) as client:
        yield client


def _cli(*argv: Any) -> tuple[int, dict[str, Any]]:
    result = run_cli(*argv)
    assert result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout)


def _whole(answer: dict[str, Any]) -> dict[str, Any]:
    """A first ``diff`` answer without its ``pages``, which must say nothing was cut."""
    pages = answer.pop("pages")
    assert set(pages) == set(DIFF_LISTS)
    assert all(p["nextCursor"] is None for p in pages.values())
    return answer


def test_diff_answers_what_olmtui_diff_prints(server: McpClient, inputs: dict[str, Path]) -> None:
    before, after = str(inputs["before"]), str(inputs["after"])
    code, printed = _cli("diff", before, after, "--output", "json")
    assert code == 1  # something changed
    answer = _whole(server.answer("diff", {"before": before, "after": after}))
    assert answer == printed
    upgraded = [o for o in answer["operators"] if o.get("from") or o.get("to")]
    assert upgraded, answer["operators"]


def test_diff_without_after_compares_with_the_servers_own_input(
    server: McpClient, inputs: dict[str, Path]
) -> None:
    before, after = str(inputs["before"]), str(inputs["after"])
    _, printed = _cli("diff", after, before, "--output", "json")
    assert _whole(server.answer("diff", {"before": after})) == printed
    _, same = _cli("diff", before, before, "--output", "json")
    assert _whole(server.answer("diff", {"before": before})) == same


def test_diff_lists_are_paged_and_every_item_read_once(
    server: McpClient, inputs: dict[str, Path]
) -> None:
    asked = {"before": str(inputs["before"]), "after": str(inputs["after"])}
    whole = _whole(server.answer("diff", asked))
    first = server.answer("diff", {**asked, "limit": 1})
    walked = 0
    for name, paged in first["pages"].items():
        holder: Any = whole
        for part in name.split("."):
            holder = holder[part]
        assert paged["total"] == len(holder)
        items = []
        cursor = paged["nextCursor"]
        shown: Any = first
        for part in name.split("."):
            shown = shown[part]
        items.extend(shown)
        while cursor is not None:
            more = server.answer("diff", {**asked, "list": name, "cursor": cursor, "limit": 1})
            assert more["list"] == name and more["total"] == len(holder)
            items.extend(more["items"])
            cursor = more["nextCursor"]
            walked += 1
        assert items == holder
    assert walked  # some list had more than one item
    changed = first["pages"]["objects.changed"]["nextCursor"]
    assert changed is not None
    wrong = server.error("diff", {**asked, "list": "objects.added", "cursor": changed})
    assert "cursor" in wrong
    assert "`list`" in server.error("diff", {**asked, "cursor": changed})


def test_a_bad_diff_input_is_a_tool_error(server: McpClient, inputs: dict[str, Path]) -> None:
    said = server.error("diff", {"before": str(inputs["missing"])})
    assert said.startswith("diff: ")
    assert "before" in server.error("diff", {})


def test_fleet_answers_what_check_fleet_prints(server: McpClient, inputs: dict[str, Path]) -> None:
    targets = [str(inputs["folder"]), str(inputs["missing"])]
    code, printed = _cli("check", "--fleet", *targets, "--output", "json")
    assert code == 4  # the missing path could not be read
    validate_fleet(printed)
    answer = server.answer("fleet", {"targets": targets})
    assert answer["total"] == len(printed["targets"]) == 3
    assert answer["nextCursor"] is None
    assert answer["rollup"] == printed["rollup"]
    assert answer["targets"] == printed["targets"]
    statuses = {t["name"]: t["status"] for t in answer["targets"]}
    assert statuses == {"before": "ok", "after": "ok", "missing": "bad-input"}
    paged = server.answer("fleet", {"targets": targets, "limit": 2})
    rest = server.answer("fleet", {"targets": targets, "limit": 2, "cursor": paged["nextCursor"]})
    assert "rollup" not in rest and rest["nextCursor"] is None
    assert paged["targets"] + rest["targets"] == printed["targets"]
    assert "targets" in server.error("fleet", {"targets": []})


def test_a_live_fleet_target_is_read_with_get_requests_only(
    server: McpClient, tmp_path: Path
) -> None:
    api = LoopbackAPIServer()
    api.state.load(sample_objects(), skip_unknown=True)
    thread = run_in_thread(api)
    try:
        kubeconfig = api.write_kubeconfig(tmp_path / "kubeconfig")
        answer = server.answer(
            "fleet", {"targets": [f"kubeconfig:{kubeconfig}"], "connectTimeout": 10}
        )
        (target,) = answer["targets"]
        assert target["status"] == "ok", target["reason"]
        assert target["summary"]["csvs"] > 0
        requests = thread.call(lambda: list(thread.server.requests))
        assert requests and {r.method for r in requests} == {"GET"}
    finally:
        thread.stop()
