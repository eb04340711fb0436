"""``olmtui serve`` without a browser: what each session runs, where it listens, and which
pages may open a session (the browser test is tests/commands/test_serve_browser.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from processes import SAMPLE, free_port, started, wait_for_http

from olmtui.cli import build_parser, main
from olmtui.commands.serve import allowed_origins, dashboard_argv, is_loopback


def argv_for(*args: str) -> list[str]:
    return dashboard_argv(build_parser().parse_args(["serve", *args]))


def test_each_session_runs_what_a_terminal_would() -> None:
    base = [sys.executable, "-m", "olmtui"]
    assert argv_for("a.yaml", "dir", "--catalog", "olm/x=c") == [
        *base,
        "replay",
        "a.yaml",
        "dir",
        "--catalog=olm/x=c",
        "--view",
        "overview",
    ]
    assert argv_for("--demo", "--view", "csv") == [*base, "demo", "--view", "csv"]
    assert argv_for("--context", "prod", "--namespace", "a", "--namespace", "b") == [
        *base,
        "--context=prod",
        "--namespace=a",
        "--namespace=b",
    ]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["a.yaml", "--demo"], "olmtui: give PATHs or --demo, not both\n"),
        (["--demo", "--context", "x"], "olmtui: --context, --kubeconfig, --namespace and --req"),
        (["--catalog", "c"], "olmtui: --catalog applies to PATHs\n"),
        (["--view", "csv"], "olmtui: --view applies to PATHs or --demo"),
        (["a.yaml", "--port", "0"], "olmtui: --port must be between 1 and 65535\n"),
        (["a.yaml", "--host", "0.0.0.0"], "olmtui: --host 0.0.0.0 listens on every address"),
    ],
)
def test_serve_refuses_arguments_that_do_not_fit(
    args: list[str], error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *args]) == 2
    assert capsys.readouterr().err.startswith(error)


class Served:
    """Stands in for textual-serve's ``Server.serve``: records instead of listening."""

    calls: list[Any] = []

    def serve(self: Any, debug: bool = False) -> None:
        Served.calls.append(self)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    from textual_serve.server import Server

    Served.calls = []
    monkeypatch.setattr(Server, "serve", Served.serve)
    return Served.calls


def test_serve_listens_on_loopback_by_default(
    recorded: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", str(SAMPLE)]) == 0
    (server,) = recorded
    assert (server.host, server.port, server.public_url) == (
        "127.0.0.1",
        8000,
        "http://127.0.0.1:8000",
    )
    assert "replay" in server.command and str(SAMPLE) in server.command
    assert capsys.readouterr().err == ""


def test_another_address_is_explicit_and_warned_about(
    recorded: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    public = ["--public-url", "http://olm.example:9000"]
    assert main(["serve", "--demo", "--host", "0.0.0.0", "--port", "9000", *public]) == 0
    (server,) = recorded
    assert (server.host, server.port) == ("0.0.0.0", 9000)
    assert server.public_url == "http://olm.example:9000"
    assert capsys.readouterr().err == (
        "olmtui serve: listening on 0.0.0.0, not loopback: anyone who reaches port 9000 sees "
        "the dashboard with your cluster access\n"
    )


def _unusable_inputs(tmp: Path) -> dict[str, list[str]]:
    """Inputs ``olmtui replay`` refuses before its screen opens, by what is wrong."""
    fifo = tmp / "cluster.yaml"
    os.mkfifo(fifo)
    empty = tmp / "empty-catalog"
    empty.mkdir()
    (empty / "notes.txt").write_text("no catalog here\n")
    return {
        "missing path": [str(tmp / "nonexistent")],
        "fifo": [str(fifo)],
        "missing catalog": [str(SAMPLE), "--catalog", f"olm/x={tmp / 'no-catalog'}"],
        "catalog without content": [str(SAMPLE), "--catalog", f"olm/x={empty}"],
    }


@pytest.mark.parametrize(
    "case", ["missing path", "fifo", "missing catalog", "catalog without content"]
)
def test_serve_refuses_what_replay_refuses_before_listening(
    case: str, tmp_path: Path, recorded: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """``olmtui serve /nonexistent`` listened and served a blank page forever: each browser
    session's ``replay`` exited at once, its one line on no screen."""
    args = _unusable_inputs(tmp_path)[case]
    assert main(["replay", *args]) == 2
    refused = capsys.readouterr().err
    assert main(["serve", *args]) == 2
    assert recorded == []  # never listened
    err = capsys.readouterr().err
    assert err == refused
    assert err.startswith("olmtui: ") and err.count("\n") == 1


def test_loopback_and_origins() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "10.0.0.1", "example.com"))
    assert allowed_origins("http://127.0.0.1:8000", 8000, True) == {
        "http://127.0.0.1:8000",
        "http://localhost:8000",
        "http://[::1]:8000",
    }
    assert allowed_origins("https://olm.example.com/", 8000, False) == {"https://olm.example.com"}


async def test_a_page_of_another_origin_cannot_open_a_session(tmp_path: Path) -> None:
    port = free_port()
    serve = [sys.executable, "-m", "olmtui", "serve", str(SAMPLE), "--port", str(port)]
    with started(serve) as server:
        wait_for_http(f"http://127.0.0.1:{port}/", server)
        url = f"ws://127.0.0.1:{port}/ws"
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(url, headers={"Origin": "http://evil.example"})
            assert refused.value.status == 403
            own = await http.ws_connect(url, headers={"Origin": f"http://localhost:{port}"})
            await own.close()
