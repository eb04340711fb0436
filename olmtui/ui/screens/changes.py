"""Changes: a scrolling log of what changed when (phase transitions, new InstallPlans,
approvals, conflicts appearing and resolving), newest at the bottom. Live sessions fill it.

It follows new events as ``tail -f`` does: while the cursor is on the newest row it stays
there as rows arrive; moved away, it stays put and the line above the table counts what
arrived since, until End (or ``G``) follows again.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.change_log import LoggedChange
from olmtui.ui.formatting import SEVERITY_STYLE
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.virtual_table import Column, Row, VirtualTable


class ChangesScreen(TableScreen):
    VIEW_TITLE = "Changes"
    COLUMNS = (
        Column("time", "TIME", 8),
        Column("what", "WHAT", 18),
        Column("object", "OBJECT", cut="middle"),
        Column("message", "DETAIL"),
    )
    EMPTY_TEXT = "no changes since the session started (a snapshot does not change)"
    BINDINGS = [Binding("G", "follow", "Follow", key_display="G")]

    #: Whether the cursor rides on the newest row; the newest entry seen while it did.
    _following = True
    _seen_seq = 0

    def compose_summary(self) -> ComposeResult:
        notice = Static("", id="follow-notice", classes="metrics", markup=False)
        notice.display = False
        yield notice

    REFRESH_PARTS = (*TableScreen.REFRESH_PARTS, "#follow-notice")

    def refresh_data(self) -> None:
        if not self.parts_present():  # before its children are mounted, or as they go
            return
        table = self.table
        following = self._following
        cursor, top = table.cursor, table.scroll_y
        super().refresh_data()
        if following:
            table.action_jump(-1)
        elif table.cursor != cursor:  # the oldest entries dropped off: keep the view put
            table.scroll_to(y=top + table.cursor - cursor, animate=False, immediate=True)
        self._show_following()

    def action_follow(self) -> None:
        """``G`` (as ``less``): to the newest row, and follow new ones again."""
        self.table.action_jump(-1)
        self.table.focus()

    @on(VirtualTable.RowHighlighted)
    def _moved(self, _event: VirtualTable.RowHighlighted) -> None:
        self._show_following()

    def _show_following(self) -> None:
        if not self.parts_present():
            return
        table = self.table
        log = self.app.change_log
        self._following = table.cursor >= table.row_count - 1
        if self._following:
            self._seen_seq = log.newest_seq
        notice = self.query_one("#follow-notice", Static)
        notice.display = table.total_count > 0
        unseen = log.newest_seq - self._seen_seq
        if self._following:
            notice.update(Text("following new events (newest at the bottom)", style="dim"))
        elif unseen:
            notice.update(
                Text(f"{unseen} new below, press End or G to follow", style="bold reverse")
            )
        else:
            notice.update(Text("not following: End or G follows new events", style="bold"))

    def build_rows(self) -> Iterable[Row]:
        log = self.app.change_log
        self._logged: dict[int, LoggedChange] = {}
        for logged in log.entries():
            self._logged[logged.seq] = logged
            entry = logged.entry
            yield Row(
                logged.seq,
                (
                    time.strftime("%H:%M:%S", time.localtime(logged.at)),
                    Text(
                        entry.what,
                        style=SEVERITY_STYLE.get(entry.severity, "")
                        if entry.severity != "info"
                        else "bold",
                    ),
                    str(entry.ref),
                    entry.message,
                ),
            )

    def describe(self, key: Hashable) -> RenderableType:
        logged = getattr(self, "_logged", {}).get(key)
        if logged is None:
            return Text("")
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(logged.at))
        return Text(f"{when}  {logged.entry.what}: {logged.entry.ref}\n{logged.entry.message}")

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        logged: LoggedChange | None = getattr(self, "_logged", {}).get(key)
        if logged is None or not logged.entry.ref.name:  # a "listed" count names no object
            return None
        return logged.entry.ref
