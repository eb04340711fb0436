"""Object detail: what OLM's annotations on it mean, its conditions as a table, the related
objects to jump to, and the YAML with syntax highlighting (``y``) and search (``/``).

It follows the object live: the app's ticker calls :meth:`ObjectScreen.refresh_data` (a few
times a second at most) when the model moved, the screen re-renders in place where the reader
is, and a deleted object stays on screen, marked with when it went.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Hashable, Sequence
from typing import Any

import yaml
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import ContentSwitcher, Static

from olmtui.kinds import CSV, SUBSCRIPTION
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.apis.reconcile import api_surface
from olmtui.model.viewmodels.finding_evidence import LOG_LINES_SHOWN, log_evidence
from olmtui.model.viewmodels.views import api_hash
from olmtui.pipeline.related import Relation
from olmtui.pipeline.session import Session
from olmtui.ui.evidence_text import log_lines_text
from olmtui.ui.formatting import phase, section, state_text
from olmtui.ui.readiness import readiness
from olmtui.ui.screens.olm_screen import OlmScreen
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.source_header import SourceHeader
from olmtui.ui.widgets.virtual_table import Column, Row, VirtualTable
from olmtui.ui.widgets.yaml_pane import YamlPane

_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

#: OLM's annotations and labels, and what they mean, as OLM writes them.
EXPLAINED: dict[str, str] = {
    "olm.operatorGroup": "name of the OperatorGroup that owns this CSV",
    "olm.operatorNamespace": "namespace of the owning OperatorGroup; on a CSV of another "
    "namespace it marks a copy (R-COPY-1)",
    "olm.targetNamespaces": "the namespaces the operator watches, comma-joined; empty means "
    "all (R-OG-3)",
    "olm.providedAPIs": "the APIs the group's operators provide (Kind.version.group), used to "
    "find conflicts between intersecting groups (R-API-2..5)",
    "olm.skipRange": "semver range of installed versions this bundle upgrades from (R-UPG-2)",
    "olm.generated-by": "the InstallPlan that created this Subscription",
    "olm.operatorframework.io/exclude-global-namespace-resolution": (
        "resolution here ignores the global catalog namespace"
    ),
    "operatorframework.io/properties": "the bundle's properties (package, version, GVKs) as JSON",
    "operatorframework.io/bundle-unpack-timeout": "how long bundle unpack Jobs may run here",
    "operatorframework.io/bundle-unpack-min-retry-interval": "wait before retrying a failed unpack",
    "olm.copiedFrom": "label: this CSV is a copy from that namespace (R-COPY-1)",
    "olm.managed": "label: OLM created this object",
    "olm.owner": "label: the object that owns it (with olm.owner.namespace, olm.owner.kind)",
}
_PREFIXES: tuple[tuple[str, str], ...] = (
    ("olm.operatorgroup.uid/", "label: a non-global OperatorGroup targets this namespace (R-OG-5)"),
    (
        "olm.api.",
        "label: provides (or requires) this API; the key is an FNV hash of Kind.version.group",
    ),
    (
        "olm.opgroup.permissions/aggregate-to-",
        "label: aggregated into an OperatorGroup ClusterRole (R-OG-8)",
    ),
)


#: The keys of this screen in one line: a Footer costs a third of a second to mount, and this
#: screen is opened and closed all the time (ctrl+p still lists every action).
KEYS_LINE = Text.assemble(
    *(
        part
        for key, what in (
            ("esc", "back"),
            ("enter", "open related"),
            ("y", "YAML"),
            ("s", "summary"),
            ("/", "search"),
            ("g", "graph"),
            ("r", "resolution"),
            ("?", "keys"),
            ("^p", "palette"),
        )
        for part in ((f" {key} ", "bold reverse"), (f" {what} ", ""))
    )
)


#: Python frames PyYAML's representer and emitter take per level of nesting, with room to
#: spare: the input keeps objects to 1,000 levels (``sources/input_limits``), which the default
#: recursion limit of 1,000 frames cannot dump.
_FRAMES_PER_LEVEL = 6
_DEEPEST_KEPT = 1000


def object_yaml(obj: dict[str, Any]) -> str:
    needed = _FRAMES_PER_LEVEL * _DEEPEST_KEPT + 200
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, needed))
    try:
        return yaml.dump(obj, Dumper=_Dumper, sort_keys=False, default_flow_style=False, width=120)
    finally:
        sys.setrecursionlimit(limit)


def conditions_table(obj: dict[str, Any]) -> Table | Text:
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


def explanation(key: str) -> str | None:
    if key in EXPLAINED:
        return EXPLAINED[key]
    return next((text for prefix, text in _PREFIXES if key.startswith(prefix)), None)


def annotations_explained(obj: dict[str, Any]) -> RenderableType:
    meta = obj.get("metadata") or {}
    marks = [*(meta.get("annotations") or {}).items(), *(meta.get("labels") or {}).items()]
    table = Table(expand=True, show_header=False, box=None)
    table.add_column(style="bold", no_wrap=True, max_width=50)
    table.add_column(ratio=1)
    table.add_column(style="dim", ratio=1)
    # name the API behind each olm.api.<hash> label (its hash: FNV-1a of Kind.version.group)
    surface = api_surface(obj) if obj.get("kind") == CSV else None
    hashes = (
        {}
        if surface is None
        else {f"olm.api.{api_hash(a)}": a for a in (*surface.provided, *surface.required)}
    )
    shown = 0
    for key, value in sorted(marks):
        text = explanation(key)
        if key in hashes:
            text = f"{hashes[key]}: {text}"
        if text is not None:
            shown += 1
            value = str(value)
            table.add_row(
                Text(key), Text(value if len(value) < 300 else value[:300] + "…"), Text(text)
            )
    return table if shown else Text("no OLM annotations or labels", style="dim")


def summary(
    obj: dict[str, Any] | None,
    target: ObjectRef,
    state_text: Text | None = None,
    more: Sequence[RenderableType] = (),
) -> RenderableType:
    """The object's status and OLM marks; ``state_text`` replaces the status word when the
    caller knows better (a Subscription's state qualified by its findings); ``more``: the
    sections a kind adds at the end (a CSV's OLM v1 readiness)."""
    if obj is None:
        return Text(f"{target} is not in the cache (deleted, or not collected).", style="dim")
    status = obj.get("status") or {}
    head = Text()
    head.append(f"{target.kind} ", style="bold")
    head.append(f"{target.namespace}/{target.name}" if target.namespace else target.name)
    parts: list[RenderableType] = [head]
    state = (
        status.get("phase")
        or status.get("state")
        or (status.get("connectionState") or {}).get("lastObservedState")
    )
    if state:
        line = Text("status: ", style="bold")
        line.append_text(state_text or phase(state))
        if status.get("reason"):
            line.append(f" ({status['reason']})")
        parts.append(line)
    if status.get("message"):
        parts.append(Text(str(status["message"])))
    parts += [
        section("OLM annotations and labels"),
        annotations_explained(obj),
        section("Conditions"),
        conditions_table(obj),
        *more,
    ]
    return Group(*parts)


class ObjectScreen(OlmScreen):
    """One object. Enter on a related object opens it; Esc goes back."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("y", "tab('yaml')", "YAML"),
        Binding("s", "tab('summary')", "Summary"),
        Binding("slash", "search", "Search the YAML", key_display="/"),
        Binding("g", "app.graph", "Graph"),
        Binding("r", "app.resolution", "Resolution"),
        Binding("question_mark", "app.help", "Keys", key_display="?"),
    ]

    REFRESH_PARTS = ("#object-summary", "#object-notice", "#related", "ContentSwitcher", "#yaml")

    def __init__(
        self,
        session: Session,
        target: ObjectRef,
        tab: str = "summary",
        extra: Sequence[Relation] = (),
    ) -> None:
        super().__init__()
        self.session = session
        self.target = target
        self.tab = tab
        self.extra = tuple(extra)
        #: The object's last state seen, kept when it is deleted; when that was seen.
        self._last: dict[str, Any] | None = None
        self._deleted_at: float | None = None
        self._shown_version = -1  # the model version shown; -1 until first rendered
        self._yaml_of: dict[str, Any] | None = None
        self._yaml_shown = False  # the YAML tab is filled when first shown

    def compose(self) -> ComposeResult:
        yield SourceHeader(self.session, str(self.target))
        yield InertStatic(id="object-notice")
        with ContentSwitcher(initial=self.tab):
            with Vertical(id="summary"):
                with VerticalScroll(classes="object-summary"):
                    yield InertStatic(id="object-summary")
                yield VirtualTable(
                    (Column("relation", "RELATED"), Column("object", "OBJECT")),
                    empty_text="no related objects",
                    id="related",
                    classes="related-table",
                )
            yield YamlPane(id="yaml")
        yield Static(KEYS_LINE, classes="keys-line", markup=False)

    def _state_text(self) -> Text | None:
        """A Subscription's state as the Subscriptions view shows it (never a green state
        its findings contradict); ``None`` for other kinds."""
        if self.target.kind != SUBSCRIPTION:
            return None
        subs = [
            s
            for s in self.session.model.subscriptions()
            if (s.namespace, s.name) == (self.target.namespace, self.target.name)
        ]
        views = self.session.analysis.subscription_states(subs)
        view = views.get((self.target.namespace, self.target.name))
        return None if view is None else state_text(view, limit=None)

    def _more(self) -> list[RenderableType]:
        """A CSV's OLM v1 readiness (R-V1-23), then the OLM log lines that name the object
        (a must-gather's, R-EVD-10), when there are any."""
        more = [*readiness(self.session, self._last)] if self.target.kind == CSV else []
        target = self.target
        logs = self.session.store.logs.naming(target.namespace, target.name, LOG_LINES_SHOWN)
        if logs:
            more += [
                section("OLM log lines naming it"),
                log_lines_text([log_evidence(line) for line in logs], target.name),
            ]
        return more

    def _object(self) -> dict[str, Any] | None:
        return self.session.store.get(self.target.kind, self.target.namespace, self.target.name)

    def on_mount(self) -> None:
        self._fill()

    def on_screen_resume(self) -> None:
        # back from a related object or a graph: catch up if the model moved meanwhile
        if self._shown_version not in (-1, self.session.model.version):
            self.refresh_data()

    def redraw_header(self) -> None:
        for header in self.query(SourceHeader):  # none while the screen is torn down
            header.redraw()

    def show(self, target: ObjectRef, tab: str = "summary", extra: Sequence[Relation] = ()) -> None:
        """Show another object in this (already mounted) screen: the app keeps a few of
        them, since building a screen costs far more than filling one. ``extra`` are more
        objects to jump to (those a finding names), listed first."""
        self.target = target
        self.tab = tab
        self.extra = tuple(extra)
        if self.is_mounted:
            self._fill()

    def _fill(self) -> None:
        header = self.query_one(SourceHeader)
        header.view_title = str(self.target)
        header.redraw()
        self._last = self._object()
        self._deleted_at = None
        self._yaml_shown = False
        self._show_state()
        self.query_one(".object-summary", VerticalScroll).scroll_home(animate=False)
        self.query_one("#related", VirtualTable).action_jump(0)
        self.action_tab(self.tab)

    def refresh_data(self) -> None:
        """Show the object's current state where the reader is (the app calls this at most a
        few times a second, when the model moved); a deleted object keeps its last state."""
        if self._shown_version == -1:  # still composing: on_mount fills it
            return
        if not self.parts_present():  # its children are being torn down or rebuilt
            return
        obj = self._object()
        if obj is None and self._last is not None:
            self._deleted_at = self._deleted_at or time.time()
        else:
            self._deleted_at = None
            self._last = obj
        self._show_state()
        if self.query_one(ContentSwitcher).current == "yaml":
            self._fill_yaml()

    def _show_state(self) -> None:
        """Summary, related objects and the deletion notice from the last state seen."""
        self._shown_version = self.session.model.version
        self.query_one("#object-summary", Static).update(
            summary(self._last, self.target, self._state_text(), self._more())
        )
        notice = self.query_one("#object-notice", Static)
        deleted = self._deleted_at is not None
        notice.set_class(deleted, "-shown")
        if self._deleted_at is not None:
            when = time.strftime("%H:%M:%S", time.localtime(self._deleted_at))
            notice.update(Text(f" deleted at {when}; showing its last state"))
        table = self.query_one("#related", VirtualTable)
        rows = self.session.analysis.related(self.target)
        known = {r for _, r in rows}
        rows = [*(e for e in self.extra if e[1] not in known), *rows]
        self._related: dict[Hashable, ObjectRef] = {i: r for i, (_, r) in enumerate(rows)}
        table.set_rows([Row(i, (how, str(r))) for i, (how, r) in enumerate(rows)])

    def _fill_yaml(self) -> None:
        """The YAML is highlighted when first viewed and again only when the object changed:
        a CSV's spec runs to thousands of lines, and most visits never look at it."""
        obj = self._last
        if self._yaml_shown and self._yaml_of is obj:
            return
        again = self._yaml_shown
        self._yaml_of, self._yaml_shown = obj, True
        self.query_one(YamlPane).show(
            object_yaml(obj) if obj else "# object not in the cache", keep_position=again
        )

    def selected_ref(self) -> ObjectRef | None:
        key = self.query_one("#related", VirtualTable).selected_key
        return None if key is None else self._related.get(key)

    def action_tab(self, tab: str) -> None:
        self.query_one(ContentSwitcher).current = tab
        if tab == "yaml":
            self._fill_yaml()
            self.query_one(YamlPane).focus_text()
        else:
            self.query_one("#related", VirtualTable).focus()

    def action_search(self) -> None:
        """``/``: search the YAML (from the summary too: it shows the YAML first)."""
        if self.query_one(ContentSwitcher).current != "yaml":
            self.action_tab("yaml")
        self.query_one(YamlPane).open_search()

    def action_back(self) -> None:
        """Esc: clear a YAML search first, then leave."""
        pane = self.query_one(YamlPane)
        if self.query_one(ContentSwitcher).current == "yaml" and pane.searching:
            pane.clear_search()
        else:
            self.app.pop_screen()

    @on(VirtualTable.RowSelected, "#related")
    def _open(self, event: VirtualTable.RowSelected) -> None:
        target = self._related.get(event.key)
        if target is not None:
            self.app.open_object(target)
