"""Defects a new user hit: each one as the user met it, and the cause under it.

A style name of the app's theme (``olm.muted``) handed where a Rich style is parsed, the
palette's Screenshot without ``~/Downloads``, and the footer's test for the palette's key.
The upgrade graph's ``[skipped]`` row that ended the app is walked in ``test_ui_paint.py``.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest
from conftest import wait_for
from data_paths import ROOT
from rich.text import Text
from textual.app import App, ComposeResult
from textual.command import CommandList

from olmtui.pipeline.build import snapshot_session
from olmtui.ui import palette
from olmtui.ui.app import OlmApp
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.keys_footer import shown_keys
from olmtui.ui.widgets.virtual_table import Column, Row, VirtualTable

SAMPLE = str(files("olmtui").joinpath("samples", "cluster.yaml"))
SIZE = (120, 36)


class _Themed(App[None]):
    """A table and a pane whose styles are the palette's names, as the screens write them."""

    def compose(self) -> ComposeResult:
        yield InertStatic(Text("pane", style=palette.ERROR), id="pane")
        yield VirtualTable([Column("name", "NAME")], id="table")

    def on_mount(self) -> None:
        self.console.push_theme(palette.rich_theme(self.get_css_variables()))
        self.query_one(VirtualTable).set_rows(
            [Row("first", ("under the cursor",)), Row("muted", ("muted row",), palette.MUTED)]
        )


def _segments(app: App[None], text: str) -> list[tuple[str, object]]:
    return [
        (s.text, s.style)
        for strip in app.screen._compositor.render_strips()
        for s in strip
        if text in s.text
    ]


async def test_a_row_styled_by_a_theme_name_is_painted_in_that_style_off_the_cursor() -> None:
    app = _Themed()
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        muted = app.console.get_style(palette.MUTED)
        [(_, style)] = _segments(app, "muted row")
        assert style is not None and style.color == muted.color  # type: ignore[attr-defined]


async def test_a_pane_whose_own_style_is_a_theme_name_is_painted_in_it() -> None:
    app = _Themed()
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        error = app.console.get_style(palette.ERROR)
        [(_, style)] = _segments(app, "pane")
        assert style.color == error.color and style.bold  # type: ignore[attr-defined]


async def test_the_footer_shows_the_palette_key_from_the_bindings_it_compares() -> None:
    """``active_bindings`` maps a key to (node, binding, enabled, tooltip): the palette's
    binding is found by the key, never by comparing the node with a string."""
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        keys = [binding.key for binding, _enabled, _tooltip in shown_keys(app.screen)]
        assert app.COMMAND_PALETTE_BINDING in keys


@pytest.fixture
def empty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME an empty directory (no ~/Downloads), started from another directory."""
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_DOWNLOAD_DIR", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(work)
    return work


async def test_the_palettes_screenshot_is_saved_where_the_notification_says(
    empty_home: Path,
) -> None:
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Screenshot")
        await wait_for(
            lambda: any(
                "Screenshot" in str(o.prompt) for o in app.screen.query_one(CommandList).options
            ),
            "the palette's Screenshot command",
            pilot=pilot,
        )
        await pilot.press("enter")
        await wait_for(
            lambda: list(empty_home.glob("*.svg")) and app._notifications,
            "the screenshot saved and said",
            pilot=pilot,
        )
        saved = list(empty_home.glob("*.svg"))
        assert len(saved) == 1, list(empty_home.iterdir())
        assert "<svg" in saved[0].read_text()
        [notice] = [n for n in app._notifications if n.title == "Screenshot"]
        assert notice.severity == "information"
        assert notice.message == f"saved to {saved[0]}"
        assert not (Path.home() / "Downloads").exists()


async def test_a_screenshot_that_cannot_be_saved_says_why(empty_home: Path) -> None:
    app = OlmApp(snapshot_session([SAMPLE]), initial_view="csv")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.deliver_screenshot(path=str(empty_home / "missing"))
        await wait_for(lambda: app._notifications, "the screenshot's notice", pilot=pilot)
        [notice] = [n for n in app._notifications if n.title == "Screenshot"]
        assert notice.severity == "error"
        assert str(empty_home / "missing") in notice.message


def test_screens_reach_the_app_typed() -> None:
    """The screens call olmtui's app through a typed ``app`` (``OlmScreen``), not
    through unchecked attributes."""
    ui = ROOT / "olmtui" / "ui"
    unchecked = [
        f"{path.relative_to(ui)}:{number}"
        for path in sorted(ui.rglob("*.py"))
        for number, text in enumerate(path.read_text().splitlines(), 1)
        if "type: ignore[attr-defined]" in text
    ]
    assert unchecked == []


@pytest.mark.parametrize(
    "names",
    [
        ("image-caching-operator-v0-0-1-sub", "projectrequestlimits-v0-0-1-sub"),
        ("openshift-certified-operators", "openshift-community-operators"),
        ("openshift-operators", "openshift-operator-lifecycle-manager", "openshift-marketplace"),
        ("registry.io/x/certified-operator-index:v4.20", "registry.io/x/community-index:v4.20"),
    ],
)
def test_a_name_cut_in_its_middle_keeps_what_tells_it_from_the_others(
    names: tuple[str, ...],
) -> None:
    from olmtui.ui.widgets.virtual_table import _fit_text, distinct_cut

    width, head = distinct_cut(names, 12, max(map(len, names)))
    shown = {_fit_text(n, width, pad=False, middle=True, head=head) for n in names}
    assert len(shown) == len(names), shown
    assert all(len(s) <= width for s in shown)
    # a few characters of each end stay, so the cut name still reads as itself
    assert all(s.index("…") >= 3 and len(s) - s.index("…") - 1 >= 3 for s in shown if "…" in s)
