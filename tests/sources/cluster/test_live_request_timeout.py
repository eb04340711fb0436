"""``--request-timeout`` bounds the whole attempt against a server that accepts TCP and never
answers: the one-shot reads (``check --live``, ``snapshot``) and the dashboard's start.

``--request-timeout 5s`` took 17 s: the dashboard took no such option, and its probe gave
each discovery request 15 s of its own. The bound is said through the option: the attempt
ends within twice the timeout given (the margin is for a loaded machine; the modules are
imported before the clock starts, so only the attempt is measured).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import olmtui.sources.cluster.live
import olmtui.ui.app  # noqa: F401  (imported before the clock starts: the dashboard needs it)
from olmtui.cli import build_parser, main
from olmtui.commands.serve import dashboard_argv
from olmtui.errors import UsageError
from olmtui.pipeline.build import live_session
from olmtui.sources.cluster.live_args import merge_leading_connection, options_from_args
from olmtui.sources.cluster.live_options import LiveOptions

#: The ``--request-timeout`` the tests give (seconds); well below the probe's 15 s per request.
TIMEOUT = 3.0


@pytest.fixture
def silent_server(tmp_path: Path) -> Iterator[Path]:
    """A kubeconfig whose server completes TCP connections (the kernel accepts them into
    the listen backlog) and never sends a byte, not even a TLS handshake's."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        port = listener.getsockname()[1]
        config = tmp_path / "kubeconfig"
        config.write_text(
            "apiVersion: v1\nkind: Config\ncurrent-context: silent\n"
            "clusters:\n- name: c\n  cluster:\n    insecure-skip-tls-verify: true\n"
            f"    server: https://127.0.0.1:{port}\n"
            "users:\n- {name: u, user: {token: t}}\n"
            "contexts:\n- {name: silent, context: {cluster: c, user: u}}\n"
        )
        yield config


@pytest.mark.parametrize(
    "argv",
    [
        ["--request-timeout", f"{TIMEOUT:g}s"],
        ["check", "--live", "--request-timeout", f"{TIMEOUT:g}s"],
        ["--request-timeout", f"{TIMEOUT:g}s", "check", "--live"],
        ["snapshot", "-o", "out.yaml", "--request-timeout", f"{TIMEOUT:g}"],
    ],
    ids=["dashboard", "check", "check-leading", "snapshot"],
)
def test_a_silent_server_is_given_up_on_within_the_request_timeout(
    argv: list[str],
    silent_server: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    began = time.monotonic()
    code = main(["--kubeconfig", str(silent_server), *argv])
    took = time.monotonic() - began
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert f"did not answer within {TIMEOUT:g} s" in err and err.count("\n") == 1, err
    assert took < 2 * TIMEOUT, f"gave up after {took:.1f} s, --request-timeout {TIMEOUT:g} s"
    assert not (tmp_path / "out.yaml").exists()


def test_the_dashboards_start_is_bounded_by_the_request_timeout(silent_server: Path) -> None:
    """The probe before the screen opens (also ``:ctx``'s): its discovery requests each
    had 15 s, whatever the timeout."""
    began = time.monotonic()
    with pytest.raises(UsageError, match=f"did not answer within {TIMEOUT:g} s"):
        live_session(LiveOptions(kubeconfig=str(silent_server), request_timeout=TIMEOUT))
    took = time.monotonic() - began
    assert took < 2 * TIMEOUT, f"gave up after {took:.1f} s, request_timeout {TIMEOUT:g} s"


def options(*argv: str) -> LiveOptions:
    args = build_parser().parse_args(argv)
    merge_leading_connection(args)
    return options_from_args(args)


def test_the_request_timeout_reaches_every_live_reader_wherever_given() -> None:
    assert options("--request-timeout", "5s").request_timeout == 5
    assert options("--request-timeout", "5s", "check", "--live").request_timeout == 5
    assert options("snapshot", "-o", "x", "--request-timeout", "1m").request_timeout == 60
    assert options("check", "--live").request_timeout == LiveOptions().request_timeout
    with pytest.raises(UsageError, match="--request-timeout given twice"):
        options("--request-timeout", "5s", "check", "--live", "--request-timeout", "6s")
    with pytest.raises(UsageError, match="--request-timeout does not apply to `olmtui replay`"):
        options("--request-timeout", "5s", "replay", "x.yaml")


def test_serve_passes_the_request_timeout_to_each_live_session() -> None:
    args = build_parser().parse_args(["serve", "--request-timeout", "5s"])
    assert dashboard_argv(args)[3:] == ["--request-timeout=5.0"]
    with pytest.raises(UsageError, match="only apply to the live cluster"):
        dashboard_argv(build_parser().parse_args(["serve", "--demo", "--request-timeout", "5"]))
