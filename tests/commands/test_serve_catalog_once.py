"""``olmtui serve`` reads each ``--catalog`` once: the refusal check before listening reads
it, and each browser session (an ``olmtui replay`` process) is handed that content instead
of reading the catalog again."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from data_paths import DATA
from processes import SAMPLE

from olmtui.cli import main
from olmtui.commands import replay
from olmtui.pipeline.session import Session
from olmtui.sources.catalog import catalogs

CATALOG = DATA / "catalogs" / "cluster-kube-descheduler-operator" / "v4.20" / "catalog"


class ServedSessions:
    """Stands in for textual-serve's ``Server.serve``: while "listening", runs one
    browser session's command in this process (its app not run) and keeps the session."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from textual_serve.server import Server

        self.sessions: list[Session] = []
        self.exits: list[int] = []
        self.commands: list[list[str]] = []
        served = self

        def serve(server: Any, debug: bool = False) -> None:
            argv = shlex.split(server.command)
            served.commands.append(argv)
            assert argv[1:4] == ["-m", "olmtui", "replay"]
            served.exits.append(main(argv[3:]))

        def run_app(app: Any) -> None:
            self.sessions.append(app.session)

        monkeypatch.setattr(Server, "serve", serve)
        monkeypatch.setattr(replay, "run_app", run_app)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[list[Path]]:
    """The file-based catalogs parsed from now on (``load_catalog`` reads FBC through it)."""
    parsed: list[list[Path]] = []
    real = catalogs.load_fbc

    def counting(files: Any, catalog: Any) -> Any:
        files = list(files)
        parsed.append(files)
        return real(files, catalog)

    monkeypatch.setattr(catalogs, "load_fbc", counting)
    return parsed


def test_serve_reads_each_catalog_once_and_its_sessions_get_the_content(
    monkeypatch: pytest.MonkeyPatch, parses: list[list[Path]]
) -> None:
    served = ServedSessions(monkeypatch)
    assert main(["serve", str(SAMPLE), "--catalog", f"olm/community={CATALOG}"]) == 0
    assert served.exits == [0]
    assert len(parses) == 1  # the refusal check's read; the session read none
    [session] = served.sessions
    given = [c for c in session.catalogs() if c.origin == str(CATALOG)]
    assert [c.ref for c in given] == ["olm/community"]
    assert sorted(given[0].packages) == sorted(catalogs.load_catalog(str(CATALOG)).packages)
    # The handed file lived while serve listened, and goes with it.
    [argv] = served.commands
    [handed] = [a.partition("=")[2] for a in argv if a.startswith("--loaded-catalogs=")]
    assert not Path(handed).exists()


def test_a_session_without_the_handed_content_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = tmp_path / "catalogs.pickle"
    assert main(["replay", str(SAMPLE), f"--loaded-catalogs={gone}"]) == 2
    assert capsys.readouterr().err == (
        f"olmtui: --loaded-catalogs {gone}: No such file or directory\n"
    )
    damaged = tmp_path / "damaged"
    damaged.write_bytes(b"\x80\x05not a pickle")
    assert main(["replay", str(SAMPLE), f"--loaded-catalogs={damaged}"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"olmtui: --loaded-catalogs {damaged}: not the catalog content olmtui serve writes\n"
    )


def test_the_option_is_not_offered_to_users(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "--loaded-catalogs" not in capsys.readouterr().out
