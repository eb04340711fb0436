"""``olmtui check`` as a user runs it: exit statuses, stderr, stable output. The exit
statuses 0 and 1, the same bytes from two processes (each its own hash seed) and the colours
on a terminal come from a real child; the refusals from ``main`` in-process
(``cli_in_process``: a child costs 1.3 s of CPU to start)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_in_process import run_cli
from data_paths import DATA, ROOT
from report_records import validate_report

MUST_GATHERS = DATA / "must-gather/must-gather-clean"
#: The aws dump holds no error finding (packageserver Succeeded, no copies): exit 0.
CLEAN = MUST_GATHERS / "must-gather-aws"


def olmtui(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "olmtui", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def report_of(result: subprocess.CompletedProcess) -> dict:
    report = json.loads(result.stdout)
    validate_report(report)
    return report


def test_exit_2_for_a_missing_path_with_one_line_on_stderr(tmp_path: Path) -> None:
    result = run_cli("check", tmp_path / "no-such-dump")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("olmtui: ") and "no-such-dump" in result.stderr
    assert "Traceback" not in result.stderr


def test_exit_2_when_nothing_readable_is_found(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a snapshot\n")
    result = run_cli("check", tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--sample", str(CLEAN)),
        ("--context", "prod", str(CLEAN)),
        ("--output", "yaml", str(CLEAN)),
    ],
    ids=["no-input", "sample-and-path", "context-without-live", "bad-output"],
)
def test_exit_2_for_unusable_command_lines(args: tuple[str, ...]) -> None:
    result = run_cli("check", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


def test_exit_0_when_no_finding_is_an_error() -> None:
    result = olmtui("check", CLEAN, "--output", "json")
    assert result.returncode == 0, result.stderr
    report = report_of(result)
    assert report["summary"]["findings"]["error"] == 0
    assert all(f["severity"] != "error" for f in report["findings"])


def test_exit_1_when_some_finding_is_an_error() -> None:
    result = olmtui("check", "--sample", "--output", "json")
    assert result.returncode == 1, result.stderr
    report = report_of(result)
    assert report["summary"]["findings"]["error"] > 0


def test_text_is_the_default_output_and_has_the_same_exit_status() -> None:
    result = run_cli("check", "--sample")
    assert result.returncode == 1
    assert result.stdout.startswith("olmtui check: snapshot of 1 path")
    assert "\nERRORS (" in result.stdout
    assert "\x1b" not in result.stdout  # not a terminal: no colour


@pytest.mark.parametrize("output", ["json", "text"])
def test_two_runs_over_the_same_input_print_the_same_bytes(output: str) -> None:
    first = olmtui("check", MUST_GATHERS / "must-gather-metal", "--output", output)
    second = olmtui("check", MUST_GATHERS / "must-gather-metal", "--output", output)
    assert first.returncode == second.returncode != 2
    assert first.stdout == second.stdout and first.stdout
    if output == "json":
        report_of(first)


def test_unreadable_documents_are_findings_and_the_rest_is_read(tmp_path: Path) -> None:
    sample = ROOT / "olmtui" / "samples" / "cluster.yaml"
    broken = tmp_path / "cluster.yaml"
    broken.write_text(sample.read_text() + "---\nkind: [unclosed\n")
    result = run_cli("check", broken, "--output", "json")
    assert result.returncode == 1
    report = report_of(result)
    assert report["source"]["paths"] == [str(broken)]
    assert report["source"]["skipped"] == 1
    unreadable = [f for f in report["findings"] if f["code"] == "UnreadableDocument"]
    assert len(unreadable) == 1 and unreadable[0]["severity"] == "warning"
    assert report["summary"]["csvs"] == 5 and report["summary"]["copiedCSVs"] == 14


def test_live_mode_needs_no_paths_and_rejects_them() -> None:
    result = run_cli("check", "--live", str(CLEAN))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_catalog_flag_is_accepted_and_repeatable() -> None:
    from olmtui.cli import build_parser

    args = build_parser().parse_args(
        [
            "check",
            "--sample",
            "--catalog",
            "openshift-marketplace/community-operators=/c1",
            "--catalog",
            "/c2",
        ]
    )
    assert args.catalogs == ["openshift-marketplace/community-operators=/c1", "/c2"]


def _run_on_a_terminal(env: dict[str, str]) -> str:
    """The text output of ``check --sample`` written to a pseudo-terminal."""
    import os
    import pty

    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "olmtui", "check", "--sample"],
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closes when the process exits
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode()


def test_text_is_coloured_on_a_terminal_unless_no_color_is_set() -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    assert "\x1b[1;31mERRORS (" in _run_on_a_terminal(env)
    assert "\x1b[" not in _run_on_a_terminal({**env, "NO_COLOR": "1"})


def test_usage_errors_show_control_characters_escaped_never_obeyed() -> None:
    result = run_cli("check", "/nowhere\x1b[2J")
    assert result.returncode == 2
    assert "\x1b" not in result.stderr
    assert result.stderr == "olmtui: /nowhere\\x1b[2J: no such file or directory\n"
