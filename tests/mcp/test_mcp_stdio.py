"""``olmtui mcp`` on a must-gather, driven by the MCP SDK's own client over stdio (one
server for the module): every tool answers what the command line prints on the same input
(``check --output json``, ``explain``, ``graph --format json``, ``whatif --output json``, run
in-process), long lists are paged with cursors that return every item exactly once, and a
bad argument is a tool error the server survives.

It also writes ``docs/mcp-transcript.md``, the README's example conversation, from the calls
it makes, with ``OLMTUI_APPROVE=1``; otherwise it checks that file is current.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_in_process import run_cli
from data_paths import ROOT
from mcp_support import McpClient
from report_records import validate_report

#: Relative to the repository, where the server runs: the paths in ``source`` and in the
#: transcript are the same on every checkout.
MUST_GATHER = "tests/data/must-gather/must-gather-clean/must-gather-azure"
ETCD = "tests/data/catalogs/community-operators-prod/operators/etcd"
INPUT = [MUST_GATHER, "--catalog", ETCD]
NAMESPACE = "cfe-test-namespace"
SUBSCRIPTION = "image-caching-operator-v0-0-1-sub"
PLAN = f"ip/{NAMESPACE}/install-bfnbn"
TOOLS = {
    "report_summary",
    "incidents",
    "findings",
    "object",
    "explain",
    "upgrade_graph",
    "whatif",
    "diff",
    "fleet",
}
TRANSCRIPT = ROOT / "docs" / "mcp-transcript.md"
APPROVE = os.environ.get("OLMTUI_APPROVE") == "1"


@pytest.fixture(scope="module")
def server() -> Iterator[McpClient]:
    with McpClient(INPUT) as client:
        yield client


def _cli_json(*argv: str) -> Any:
    """``olmtui ARGV`` run in-process from the repository (the server's working directory);
    exit 2 is ``explain``'s for a resolution it cannot predict, printed all the same."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        result = run_cli(*argv)
    assert result.returncode in (0, 1, 2) and result.stdout, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    checked: dict[str, Any] = _cli_json("check", *INPUT, "--output", "json")
    validate_report(checked)
    return checked


def test_the_tools_are_listed_read_only_and_say_results_are_cluster_content(
    server: McpClient,
) -> None:
    tools = server.tools()
    assert {t.name for t in tools} == TOOLS
    for tool in tools:
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.annotations.destructive_hint is False
        assert "cluster content" in (tool.description or "")
        assert tool.input_schema["type"] == "object"


def test_report_summary_is_checks_source_summary_and_incidents(
    server: McpClient, report: dict[str, Any]
) -> None:
    answer = server.answer("report_summary")
    assert answer == {
        "format": 1,
        "source": report["source"],
        "summary": report["summary"],
        "incidents": report["incidents"],
        "nextCursor": None,
    }
    assert answer["source"]["complete"] is True


def test_findings_and_incidents_are_checks_and_filter_as_asked(
    server: McpClient, report: dict[str, Any]
) -> None:
    assert server.answer("findings")["findings"] == report["findings"]
    assert server.answer("incidents")["incidents"] == report["incidents"]
    errors = server.answer("findings", {"severity": "error", "namespace": NAMESPACE})
    assert errors["findings"] == [
        f for f in report["findings"] if f["severity"] == "error" and f["namespace"] == NAMESPACE
    ]
    assert errors["total"] == 2
    by_kind = server.answer("findings", {"kind": "sub", "rule": "R-SUB-5"})["findings"]
    assert [(f["kind"], f["name"]) for f in by_kind] == [("Subscription", SUBSCRIPTION)]
    incidents = server.answer("incidents", {"namespace": NAMESPACE, "kind": "InstallPlan"})
    assert [i["severity"] for i in incidents["incidents"]] == ["error"]


def test_a_cursor_walk_returns_every_finding_exactly_once(
    server: McpClient, report: dict[str, Any]
) -> None:
    walked: list[Any] = []
    cursor = None
    pages = 0
    while True:
        arguments: dict[str, Any] = {"limit": 2}
        if cursor is not None:
            arguments["cursor"] = cursor
        answer = server.answer("findings", arguments)
        assert answer["total"] == len(report["findings"])
        walked += answer["findings"]
        pages += 1
        cursor = answer["nextCursor"]
        if cursor is None:
            break
    assert walked == report["findings"]
    assert pages == -(-len(report["findings"]) // 2)
    # a cursor of one list does not read another
    first = server.answer("findings", {"limit": 2})["nextCursor"]
    assert "another list" in server.error(
        "findings", {"limit": 2, "severity": "info", "cursor": first}
    )


def test_object_is_its_report_entry_findings_incident_and_related_objects(
    server: McpClient, report: dict[str, Any]
) -> None:
    answer = server.answer(
        "object", {"kind": "Subscription", "namespace": NAMESPACE, "name": SUBSCRIPTION}
    )
    mine = [f for f in report["findings"] if f["name"] == SUBSCRIPTION]
    assert answer["object"] == {
        "kind": "Subscription",
        "namespace": NAMESPACE,
        "name": SUBSCRIPTION,
        "present": True,
    }
    assert answer["entry"] == next(s for s in report["subscriptions"] if s["name"] == SUBSCRIPTION)
    assert answer["findings"] == mine
    assert [i["id"] for i in answer["incidents"]] == [mine[0]["incident"]]
    assert answer["evidence"] and all(e in mine[0]["evidence"] for e in answer["evidence"])
    related = {(r["kind"], r["name"]) for r in answer["related"]}
    assert ("InstallPlan", "install-bfnbn") in related


def test_explain_graph_and_whatif_are_what_the_cli_prints(server: McpClient) -> None:
    explained = server.answer("explain", {"namespace": NAMESPACE, "subscription": SUBSCRIPTION})
    assert explained["resolution"] == _cli_json("explain", NAMESPACE, *INPUT, "--output", "json")
    graph = server.answer("upgrade_graph", {"package": "etcd"})
    assert graph["graph"] == _cli_json("graph", "etcd", *INPUT, "--format", "json")
    assert graph["graph"]["head"] == "etcdoperator.v0.9.4"
    action = {"action": "delete", "object": PLAN}
    whatif = server.answer("whatif", {"actions": [action]})
    assert whatif["whatif"] == _cli_json("whatif", *INPUT, "--delete", PLAN, "--output", "json")
    # simulated, never applied: the InstallPlan is still there
    plan = {"kind": "ip", "namespace": NAMESPACE, "name": "install-bfnbn"}
    assert server.answer("object", plan)["object"]["present"] is True


def test_diff_and_fleet_on_the_must_gather_are_what_the_cli_prints(server: McpClient) -> None:
    # the server's own input against the same must-gather read again: nothing changed
    same = server.answer("diff", {"before": MUST_GATHER})
    assert all(p["total"] == 0 for n, p in same.pop("pages").items() if n != "operators")
    assert same == _cli_json("diff", MUST_GATHER, *INPUT, "--output", "json")
    fleet = server.answer("fleet", {"targets": [MUST_GATHER]})
    printed = _cli_json("check", "--fleet", *INPUT, "--output", "json")
    assert fleet["targets"] == printed["targets"] and fleet["rollup"] == printed["rollup"]
    assert fleet["targets"][0]["status"] == "ok"


#: Arguments a client may get wrong, and what the tool error says.
BAD_ARGUMENTS: list[tuple[str, dict[str, Any], str]] = [
    ("findings", {"namespace": "Not_A_Namespace"}, "is not a namespace name"),
    ("findings", {"kind": "Pizza"}, "unknown kind"),
    ("findings", {"severity": "fatal"}, "is not one of"),
    ("findings", {"rule": "no rule"}, "is not a rule id"),
    ("findings", {"limit": 0}, "`limit`"),
    ("findings", {"cursor": "not-a-cursor"}, "not one this server gave"),
    ("findings", {"colour": "red"}, "unknown argument"),
    ("object", {"kind": "csv", "name": "x"}, "give its namespace"),
    ("object", {"kind": "csv", "namespace": NAMESPACE, "name": "nothing"}, "no Cluster"),
    ("explain", {"namespace": "default"}, "holds no Subscription"),
    ("explain", {"namespace": NAMESPACE, "subscription": "nope"}, "no Subscription"),
    ("upgrade_graph", {"package": "no-such-package"}, "not in the catalog content"),
    ("whatif", {"actions": [{"action": "explode", "object": PLAN}]}, "`action` is"),
    ("whatif", {"actions": [{"action": "delete", "object": "pizza/a/b"}]}, "unknown kind"),
    ("whatif", {"actions": []}, "1 to 20"),
    ("diff", {"before": MUST_GATHER, "list": "everything"}, "`list` is one of"),
    ("fleet", {"targets": ["#"]}, "names nothing"),
    ("fleet", {"targets": [MUST_GATHER], "deadline": 0}, "`deadline`"),
    ("nothing", {}, "no tool"),
]


def test_a_bad_argument_is_a_tool_error_and_the_server_goes_on(server: McpClient) -> None:
    for tool, arguments, said in BAD_ARGUMENTS:
        assert said in server.error(tool, arguments), (tool, arguments)
    assert server.answer("report_summary")["format"] == 1


# -- the transcript ------------------------------------------------------------------------

#: The example conversation: what an on-call engineer asks, and the call a client makes.
CONVERSATION: list[tuple[str, str, dict[str, Any]]] = [
    ("What is wrong with OLM on this cluster?", "report_summary", {}),
    (
        "Show me the errors in cfe-test-namespace.",
        "findings",
        {"namespace": NAMESPACE, "severity": "error"},
    ),
    (
        "Why is the image-caching-operator Subscription stuck?",
        "object",
        {"kind": "Subscription", "namespace": NAMESPACE, "name": SUBSCRIPTION},
    ),
    (
        "If I delete the failed InstallPlan, does it recover?",
        "whatif",
        {"actions": [{"action": "delete", "object": PLAN}]},
    ),
]
#: Lines of a result shown in the transcript; the rest is elided.
SHOWN_LINES = 60


def _transcript(server: McpClient) -> str:
    lines = [
        "# An example MCP conversation",
        "",
        "Produced by `tests/mcp/test_mcp_stdio.py` (regenerate with `OLMTUI_APPROVE=1`): an MCP",
        "client (the official SDK's, over stdio) talking to",
        "",
        "    olmtui mcp " + " ".join(INPUT),
        "",
        "Each step is what the engineer asked, the tool call the assistant made and the",
        "start of what olmtui answered (the same JSON `olmtui check --output json` prints;",
        "`source`, the same in every answer, is shown once).",
        "",
    ]
    for number, (question, tool, arguments) in enumerate(CONVERSATION, 1):
        answer = server.answer(tool, arguments)
        if number > 1:
            answer["source"] = "(as in step 1)"
        shown = json.dumps(answer, indent=2, ensure_ascii=False).split("\n")
        more = len(shown) - SHOWN_LINES
        body = shown[:SHOWN_LINES] + ([f"... ({more} more lines)"] if more > 0 else [])
        lines += [
            f"## {number}. {question}",
            "",
            f"Call `{tool}` with `{json.dumps(arguments)}`:",
            "",
            "```json",
            *body,
            "```",
            "",
        ]
    return "\n".join(lines)


def test_the_readme_transcript_is_what_the_server_answers(server: McpClient) -> None:
    now = _transcript(server)
    if APPROVE:
        TRANSCRIPT.write_text(now, encoding="utf-8")
    assert TRANSCRIPT.read_text(encoding="utf-8") == now, (
        "docs/mcp-transcript.md is not what the server answers now; if the change is "
        "intended, regenerate it: OLMTUI_APPROVE=1 python3 -m pytest tests/mcp/test_mcp_stdio.py"
    )


def test_the_transcript_file_is_under_docs() -> None:
    assert Path(TRANSCRIPT).parent.name == "docs"
