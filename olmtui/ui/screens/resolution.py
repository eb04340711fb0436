"""Resolution: what OLM's next resolution of one namespace yields, as olmtui reproduces it
(``olmtui.model.rules.resolution``). Resolved: the bundles the next InstallPlan would install,
what each replaces and why it is there, and the operators kept. Cannot be satisfied: the
minimal explanation, causes first, each constraint in OLM's words with its objects and a
fix. Stopped: OLM's error. Not evaluated: what olmtui lacks.

Opened on a Subscription, the lines that concern it are marked: OLM resolves the namespace
as a whole, so the others still decide its fate. Enter on a line naming an object opens
it. The view follows the cache: it resolves again in a worker thread when the namespace's
objects change (never on the UI thread: a large catalog takes most of a second), and keeps
the last result on screen meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from olmtui.frozen import frozen
from olmtui.kinds import CSV
from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.resolution.concerns import (
    object_ref,
    subscription_constraints,
    subscription_operators,
)
from olmtui.model.rules.resolution.entries import EXISTING
from olmtui.model.rules.resolution.result import ExplainedConstraint, NamespaceResolution
from olmtui.pipeline.resolution_inputs import ResolutionInputs
from olmtui.pipeline.session import Session
from olmtui.ui import palette
from olmtui.ui.inert import inert_text
from olmtui.ui.screens.base import ViewScreen
from olmtui.ui.widgets.inert_static import InertStatic
from olmtui.ui.widgets.source_header import SourceHeader

MARK = palette.SEVERITY_MARK
#: The mark of the lines that concern the Subscription the view was opened on.
FOCUS = "» "
#: status -> (mark, words, style): the mark and the words read without colour.
STATUS: dict[str, tuple[str, str, str]] = {
    "resolved": ("✓", "resolved", palette.OK_STRONG),
    "unsatisfiable": (MARK["error"], "cannot be satisfied", palette.ERROR),
    "failed": (MARK["warning"], "stopped", palette.WARNING_STRONG),
    "not-evaluated": (MARK["info"], "not evaluated", palette.UNKNOWN_STRONG),
}
CATALOG_HINT = (
    "start olmtui with --catalog NS/NAME=PATH (the CatalogSource's content: an FBC, "
    "bundle directories or a package tree) to resolve it"
)


@frozen
class Line:
    """One line of the view: its text, the object Enter opens (if any), and what goes
    before it (marks, numbers, indent): wrapped text stays to the right of it."""

    text: Text
    target: ObjectRef | None = None
    prefix: Text | None = None

    def prompt(self) -> RenderableType:
        """The option shown: names, constraints and OLM's messages inert (``ui/inert``)."""
        text = inert_text(self.text)
        if self.prefix is None or not self.prefix.cell_len:
            return text
        grid = Table.grid()
        grid.add_column(width=self.prefix.cell_len, no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(self.prefix, text)
        return grid


def _prefix(text: str, style: str = "") -> Text:
    return Text(text, style=style)


def status_text(resolution: NamespaceResolution | None, namespace: str, busy: bool) -> Text:
    """The first line: the outcome with its mark, and whether a resolution is under way."""
    out = Text()
    if resolution is None:
        out.append(f"namespace {namespace}: resolving…", style=palette.MUTED)
        return out
    mark, words, style = STATUS[resolution.status]
    out.append(f"{mark} {words}", style=style)
    out.append(f"  namespace {namespace}: {_summary(resolution)}")
    if busy:
        out.append("  (resolving…)", style=palette.MUTED)
    return out


def _summary(resolution: NamespaceResolution) -> str:
    if resolution.status == "resolved":
        count = len(resolution.changes)
        if not count:
            return "nothing to install; what is installed satisfies every Subscription"
        return f"the next InstallPlan would install {count} bundle{'s' if count > 1 else ''}"
    if resolution.status == "unsatisfiable":
        return "OLM creates no InstallPlan here until one of the constraints below changes"
    if resolution.status == "failed":
        return "OLM stops resolving this namespace with an error, and installs nothing"
    return "olmtui lacks an input to reproduce OLM's resolution"


def _heading(text: str) -> Line:
    return Line(Text(text, style="bold underline"))


def _focus_mark(on: bool, focused: bool) -> str:
    """``» `` before the lines of the Subscription the view is about (none when the view is
    about the namespace)."""
    return (FOCUS if on else "  ") if focused else ""


def resolved_lines(
    resolution: NamespaceResolution, sub: str | None, installed: frozenset[str] = frozenset()
) -> list[Line]:
    """The changes (what each replaces, why it is there) then the operators kept;
    ``installed``: the CSV names of the namespace, to tell an upgrade from an edge of the
    channel whose older end is not installed here."""
    mine = subscription_operators(resolution, sub) if sub else set()
    changes = set(resolution.changes)
    new = [o for o in resolution.operators if o.name in changes]
    kept = [o for o in resolution.operators if o.name not in changes]
    out = [_heading(f"Next InstallPlan would install ({len(new)})")]
    if not new:
        out.append(Line(Text("nothing", style=palette.MUTED), None, _prefix("  ")))
    for op in [*new, *kept]:
        if op is (kept[0] if kept else None):
            out.append(_heading(f"Kept as they are ({len(kept)})"))
        mark = _focus_mark(op.name in mine, sub is not None)
        target = object_ref(op.reason)
        if target is None and op.catalog == EXISTING:
            target = ObjectRef(CSV, resolution.namespace, op.name)
        text = Text(op.name, style="bold" if op.name in mine else "")
        text.append(f"  package {op.package}, channel {op.channel or '(default)'}, ")
        text.append(f"from {op.catalog}")
        out.append(Line(text, target, _prefix(mark)))
        if op.name in changes:
            why = Text(
                f"{_replaces(op.replaces, installed)}; there for: {_why(op.reason)}",
                style=palette.MUTED,
            )
            out.append(Line(why, target, _prefix(" " * (len(mark) + 4))))
    return out


def _replaces(replaces: str | None, installed: frozenset[str]) -> str:
    if not replaces:
        return "a new install"
    if replaces in installed:
        return f"upgrades {replaces}"
    return f"a new install (its channel entry replaces {replaces}, not installed here)"


def _why(reason: str) -> str:
    return "installed already" if reason == "existing" else reason


def explanation_lines(resolution: NamespaceResolution, sub: str | None) -> list[Line]:
    """The minimal explanation, causes first: each constraint, its objects, its fix."""
    mine = subscription_constraints(resolution, sub) if sub else set()
    out = [
        _heading(
            f"Why: {len(resolution.explanation)} constraints that cannot all hold "
            "(drop any one and a solution exists), causes first"
        )
    ]
    for number, constraint in enumerate(resolution.explanation, 1):
        out.extend(_constraint_lines(number, constraint, constraint in mine, sub is not None))
    return out


def _constraint_lines(
    number: int, constraint: ExplainedConstraint, on: bool, focused: bool
) -> list[Line]:
    # Never dimmed: every constraint of a minimal set is part of the cause, and the one
    # that names no Subscription (an orphaned CSV) is often the one to act on.
    mark = _focus_mark(on, focused)
    number_text = f"{number}. "
    head = Line(
        Text(constraint.constraint, style="bold"),
        _fix_target(constraint),
        _prefix(f"{mark}{number_text}", "bold"),
    )
    indent = _prefix(" " * (len(mark) + len(number_text) + 2))
    out = [head]
    for named in constraint.objects:
        target = object_ref(named)
        text = Text(named)
        if target is not None:
            opens = " (Enter: its CatalogSource)" if named.startswith("bundle ") else " (Enter)"
            text.append(opens, style=palette.MUTED)
        out.append(Line(text, target, indent))
    fix = Text("fix: ", style=palette.OK_STRONG)
    fix.append(constraint.fix)
    out.append(Line(fix, _fix_target(constraint), indent))
    return out


def _fix_target(constraint: ExplainedConstraint) -> ObjectRef | None:
    """The object a fix acts on: the first object of the constraint that is not a bundle."""
    found = (object_ref(o) for o in constraint.objects if not o.startswith("bundle "))
    return next((t for t in found if t is not None), None)


def other_lines(resolution: NamespaceResolution, has_content: bool) -> list[Line]:
    """Stopped: OLM's error. Not evaluated: why, and what to give olmtui."""
    if resolution.status == "failed":
        out = [_heading("OLM's error")]
        out.append(Line(Text(resolution.reason or "(no message)"), None, _prefix("  ")))
        return out
    out = [_heading("Why olmtui cannot tell")]
    out.append(Line(Text(resolution.reason or "(no reason given)"), None, _prefix("  ")))
    reason = resolution.reason or ""
    if not has_content or "catalog content" in reason or "--catalog" in reason:
        out.append(Line(Text(CATALOG_HINT, style=palette.INFO), None, _prefix("  ")))
    return out


def body_lines(
    resolution: NamespaceResolution,
    sub: str | None,
    has_content: bool,
    installed: frozenset[str] = frozenset(),
) -> list[Line]:
    if resolution.status == "resolved":
        return resolved_lines(resolution, sub, installed)
    if resolution.status == "unsatisfiable":
        return explanation_lines(resolution, sub)
    return other_lines(resolution, has_content)


def focus_note(namespace: str, sub: str) -> Text:
    """What a Subscription's view says first: the lines about it are marked, and the
    namespace is resolved as a whole."""
    return Text(
        f"Subscription {sub}: the lines marked {FOCUS.strip()} concern it. OLM resolves "
        f"namespace {namespace} as a whole: every Subscription of it installs together, "
        "or none does.",
        style=palette.MUTED,
    )


class ResolutionScreen(ViewScreen):
    """One namespace's resolution, optionally about one of its Subscriptions."""

    VIEW_TITLE = "Resolution"
    REFRESH_PARTS = ("#resolution-status", "#resolution-lines")

    def __init__(
        self,
        session: Session,
        commands: Sequence[str] = (),
        namespace: str = "",
        subscription: str | None = None,
    ) -> None:
        super().__init__(session, commands)
        self.namespace = namespace
        #: ``ns/name`` of the Subscription the view is about, if any.
        self.subscription = f"{namespace}/{subscription}" if subscription else None
        self.result: NamespaceResolution | None = None
        self._inputs: ResolutionInputs | None = None
        self._resolved_inputs: ResolutionInputs | None = None
        self._busy = False
        self._lines: list[Line] = []

    def compose_body(self) -> ComposeResult:
        with Vertical(classes="resolution-view"):
            yield InertStatic(id="resolution-status")
            note = InertStatic(id="resolution-note")
            note.display = self.subscription is not None
            yield note
            yield OptionList(id="resolution-lines")

    @property
    def lines_list(self) -> OptionList:
        return self.query_one("#resolution-lines", OptionList)

    def on_mount(self) -> None:
        title = f"{self.VIEW_TITLE} {self.subscription or self.namespace}"
        for header in self.query(SourceHeader):
            header.view_title = title
        if self.subscription is not None:
            self.query_one("#resolution-note", Static).update(
                focus_note(self.namespace, self.subscription)
            )
        super().on_mount()
        self.lines_list.focus()

    def focus_main(self) -> None:
        self.set_focus(self.lines_list)

    # -- resolving -------------------------------------------------------------------------
    def refresh_data(self) -> None:
        """The model moved: resolve again if the namespace's inputs did (in a worker)."""
        if not self.parts_present():  # before its children are mounted, or as they go
            return
        self._shown_version = self.session.analysis.shown_stamp()
        self._inputs = self.session.analysis.resolution_inputs(self.namespace)
        if self._inputs.same_as(self._resolved_inputs) and self.result is not None:
            self._show()
            return
        if not self._busy:
            self._start(self._inputs)
        self._show()

    def _start(self, given: ResolutionInputs) -> None:
        self._busy = True
        self._resolve(given)

    @work(thread=True, group="resolution", exit_on_error=False)
    def _resolve(self, given: ResolutionInputs) -> None:
        try:
            result = given.resolve()
        except Exception as exc:  # shown as not evaluated, never fatal to the dashboard
            result = NamespaceResolution(
                self.namespace, "not-evaluated", f"olmtui could not resolve: {exc}"
            )
        self.app.call_from_thread(self._done, given, result)

    def _done(self, given: ResolutionInputs, result: NamespaceResolution) -> None:
        """Show a result; when the inputs moved meanwhile, resolve again (one at a time)."""
        self._busy = False
        self.result = result
        self._resolved_inputs = given
        if not self.is_mounted:  # closed meanwhile: nothing to show, nothing to follow
            return
        latest = self._inputs
        if latest is not None and not latest.same_as(given):
            self._start(latest)
        self._show()

    def _show(self) -> None:
        if not self.parts_present():  # before its children are mounted, or as they go
            return
        status = self.query_one("#resolution-status", Static)
        status.update(status_text(self.result, self.namespace, self._busy))
        if self.result is None:
            return
        given = self._resolved_inputs
        has_content = given.has_content if given is not None else True
        installed = frozenset(
            str((c.get("metadata") or {}).get("name") or "")
            for c in (given.objects.csvs if given is not None else ())
        )
        lines = body_lines(self.result, self.subscription, has_content, installed)
        if lines == self._lines:
            return
        self._lines = lines
        view = self.lines_list
        highlighted = view.highlighted
        view.clear_options()
        view.add_options([Option(line.prompt()) for line in lines])
        if lines:
            view.highlighted = min(highlighted or 0, len(lines) - 1)

    def restyle(self) -> None:
        """A new theme: the lines are rebuilt (the list keeps what it rendered)."""
        self._lines = []
        super().restyle()

    # -- hooks -----------------------------------------------------------------------------
    def selected_ref(self) -> ObjectRef | None:
        index = self.lines_list.highlighted
        if index is None or index >= len(self._lines):
            return None
        return self._lines[index].target

    @on(OptionList.OptionSelected, "#resolution-lines")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        target = self.selected_ref()
        if target is not None:
            self.app.open_object(target)
