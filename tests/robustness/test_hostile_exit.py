"""A crash is never exit 1: any unexpected exception ends every command with one
line naming it and where to report it, and exit status 3; ``OLMTUI_DEBUG=1`` adds the
traceback. Exit 1 stays "an error finding", so CI can tell the two apart."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
from data_paths import ROOT
from textual.app import App

from olmtui import cli
from olmtui.errors import EXIT_CRASH, run_app


def _boom(*_args: Any, **_kwargs: Any) -> Any:
    raise KeyError("spec \x1b[31m")


@pytest.mark.parametrize(
    ("argv", "target"),
    [
        (["check", "--sample"], "olmtui.commands.check.run"),
        (["check", "--sample", "--output", "json"], "olmtui.report.write_json"),
        (["explain", "ns", "--sample", "--catalog", "x"], "olmtui.commands.explain.run"),
        (["graph", "pkg", "x.yaml"], "olmtui.commands.graph.run"),
        (["replay", "x.yaml"], "olmtui.commands.replay.run"),
        (["snapshot", "-o", "x.yaml"], "olmtui.commands.snapshot.run"),
        (["demo", "--print"], "olmtui.commands.demo.run"),
        (["serve", "--demo"], "olmtui.commands.serve.run"),
        ([], "olmtui.cli._run_dashboard"),
    ],
)
def test_a_crash_is_one_line_and_exit_3(
    argv: list[str],
    target: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("OLMTUI_DEBUG", raising=False)
    module, name = target.rsplit(".", 1)
    monkeypatch.setattr(module + "." + name, _boom)
    # the parser binds each command's run when main builds it: after the patch
    status = cli.main(argv)
    captured = capsys.readouterr()
    assert status == EXIT_CRASH
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("olmtui: internal error: KeyError: ")
    assert "please report it" in lines[0]
    assert "Traceback" not in captured.err
    assert "\x1b" not in captured.err  # the message may come from the input: escaped


def test_debug_prints_the_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OLMTUI_DEBUG", "1")
    monkeypatch.setattr("olmtui.commands.check.run", _boom)
    assert cli.main(["check", "--sample"]) == EXIT_CRASH
    err = capsys.readouterr().err
    assert "Traceback" in err
    assert err.splitlines()[-1].startswith("olmtui: internal error: KeyError")


def test_usage_errors_and_findings_keep_their_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "/nonexistent/path"]) == 2
    assert cli.main(["check", "--sample"]) in (0, 1)
    capsys.readouterr()


class _Crashing(App[None]):
    def on_mount(self) -> None:
        raise ValueError("screen failed")

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return super().run(headless=True)


def test_a_dashboard_crash_is_raised_not_printed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Textual catches the app's exception, prints a traceback with locals and returns:
    ``run_app`` drops that printout and re-raises, for the one-line report and exit 3."""
    monkeypatch.delenv("OLMTUI_DEBUG", raising=False)
    with pytest.raises(ValueError, match="screen failed"):
        run_app(_Crashing())
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out


def test_a_closed_pipe_is_no_crash() -> None:
    """``olmtui check ... | head``: the reader goes away; olmtui exits 141 without a word."""
    root = ROOT
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, "-m", "olmtui", "check", "--sample", "--output", "json"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        err = process.stderr.read()
        assert process.wait(timeout=120) == 141
    assert err == b""
