"""``--view`` names a view or the command stops with exit 2 listing them, before loading."""

from __future__ import annotations

from pathlib import Path

import pytest

from olmtui.cli import main
from olmtui.commands.view_option import initial_view
from olmtui.errors import UsageError

VIEWS = (
    "overview, namespaces, operatorgroups, csvs, subscriptions, installplans, xray, graphs, "
    "findings, catalogs, clusterextensions, clustercatalogs, migration, upgrade, changes"
)


@pytest.mark.parametrize(
    ("word", "view"),
    [("overview", "overview"), ("ns", "namespaces"), ("SUB", "subscriptions"), ("fin", "findings")],
)
def test_names_aliases_and_unambiguous_prefixes_name_a_view(word: str, view: str) -> None:
    assert initial_view(word) == view


@pytest.mark.parametrize("argv", [["replay", "PATH"], ["demo", "--cycles", "1"]])
@pytest.mark.parametrize("word", ["nosuch", "c"], ids=["unknown", "ambiguous"])
def test_a_word_naming_no_view_is_exit_2_listing_the_views(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], word: str
) -> None:
    # The PATH does not exist: the view is checked first, before anything is read or started.
    argv = [str(tmp_path / "missing") if a == "PATH" else a for a in argv]
    assert main([*argv, "--view", word]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"olmtui: no view '{word}' (an unknown name or an ambiguous prefix); views: {VIEWS}\n"
    )


def test_the_message_shows_control_characters_escaped() -> None:
    with pytest.raises(UsageError) as raised:
        initial_view("x\x1b[2J")
    assert "x\\x1b[2J" in str(raised.value)
