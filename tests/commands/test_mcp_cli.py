"""``olmtui mcp`` refuses what it cannot serve before it speaks MCP: without the SDK (the
``olmtui[mcp]`` extra) and with an unusable input it exits 2 with one line, as ``check``
does; the server itself is driven in ``tests/mcp/``."""

from __future__ import annotations

import sys

import pytest
from cli_in_process import run_cli


def _one_line_exit_2(result: object, *said: str) -> None:
    code, err = result.returncode, result.stderr  # type: ignore[attr-defined]
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    for text in said:
        assert text in err


def test_without_the_sdk_it_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # as if not installed: importing it fails
    monkeypatch.delitem(sys.modules, "mcp.server", raising=False)
    _one_line_exit_2(run_cli("mcp", "--sample"), "pip install 'olmtui[mcp]'")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        ((), "nothing to serve"),
        (("--sample", "--live"), "not several"),
        (("--sample", "--context", "prod"), "only apply with --live"),
        (("/no/such/path",), "/no/such/path"),
    ],
)
def test_an_input_it_cannot_serve_is_one_line_and_exit_2(argv: tuple[str, ...], said: str) -> None:
    _one_line_exit_2(run_cli("mcp", *argv), said)
