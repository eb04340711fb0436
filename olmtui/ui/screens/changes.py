"""Changes: a scrolling log of what changed when (phase transitions, new InstallPlans,
approvals, conflicts appearing and resolving), newest first. Live sessions fill it."""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable

from rich.console import RenderableType
from rich.text import Text

from olmtui.model.types import ObjectRef
from olmtui.ui.change_log import LoggedChange
from olmtui.ui.formatting import SEVERITY_STYLE
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.widgets.virtual_table import Column, Row


class ChangesScreen(TableScreen):
    VIEW_TITLE = "Changes"
    COLUMNS = (
        Column("time", "TIME", 8),
        Column("what", "WHAT", 18),
        Column("object", "OBJECT"),
        Column("message", "DETAIL"),
    )
    EMPTY_TEXT = "no changes since the session started (a snapshot does not change)"

    def build_rows(self) -> Iterable[Row]:
        log = self.app.change_log  # type: ignore[attr-defined]
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
        logged = getattr(self, "_logged", {}).get(key)
        if logged is None or not logged.entry.ref.name:  # a "listed" count names no object
            return None
        return logged.entry.ref
