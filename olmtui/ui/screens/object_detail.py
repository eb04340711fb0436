"""Object detail: YAML with syntax highlighting and the object's conditions as a table."""

from __future__ import annotations

import yaml
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static, TabbedContent, TabPane

from olmtui.model.types import ObjectRef
from olmtui.ui.session import Session
from olmtui.ui.widgets.source_header import SourceHeader

_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def object_yaml(obj: dict) -> str:
    return yaml.dump(obj, Dumper=_Dumper, sort_keys=False, default_flow_style=False, width=120)


def conditions_table(obj: dict) -> Table | Text:
    conditions = (obj.get("status") or {}).get("conditions") or []
    if not conditions:
        return Text("no conditions", style="dim")
    table = Table(expand=True)
    for column in ("type / phase", "status / reason", "message", "last transition"):
        table.add_column(column)
    for c in conditions:
        table.add_row(
            Text(str(c.get("type") or c.get("phase") or "")),
            Text(" ".join(str(x) for x in (c.get("status"), c.get("reason")) if x)),
            Text(str(c.get("message") or "")),
            Text(str(c.get("lastTransitionTime") or "")),
        )
    return table


class ObjectScreen(Screen):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, session: Session, ref: ObjectRef, tab: str = "summary") -> None:
        super().__init__()
        self.session = session
        self.ref = ref
        self.tab = tab

    def compose(self) -> ComposeResult:
        yield SourceHeader(self.session, str(self.ref))
        obj = self.session.store.get(self.ref.kind, self.ref.namespace, self.ref.name)
        with TabbedContent(initial=self.tab):
            with TabPane("Summary", id="summary"), VerticalScroll():
                yield Static(conditions_table(obj) if obj else Text("object not in the cache"))
            with TabPane("YAML", id="yaml"), VerticalScroll():
                text = object_yaml(obj) if obj else "# object not in the cache"
                yield Static(Syntax(text, "yaml", theme="ansi_dark", word_wrap=False))
        yield Footer()
