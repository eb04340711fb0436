"""Operators (CSVs): phase, reason, OLM's verdict, version, group, provided and required
APIs. Copied CSVs (R-COPY-1) are hidden by default and counted per source CSV; ``c``
shows them as rows (the virtual table holds a hundred thousand)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from functools import partial

from rich.console import Group, RenderableType
from rich.text import Text
from textual.binding import Binding

from olmtui.kinds import CSV, SUBSCRIPTION
from olmtui.model.records.types import CSVState, ObjectRef
from olmtui.model.rules.input.access import is_unreliable
from olmtui.model.viewmodels.lifecycles import support_line
from olmtui.store import Unreadable
from olmtui.ui import palette
from olmtui.ui.formatting import line, names, phase, section
from olmtui.ui.rows_ahead import RowsAhead
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.xray import open_xray
from olmtui.ui.widgets.virtual_table import Cell, Column, Row, RowSet


def verdict_text(csv: CSVState, unreadable: Mapping[str, Unreadable] | None = None) -> Text:
    """What OLM's next sync would write; when it differs from the current status, ``→ ``
    (will become) and the warning colour, so it reads without colour too (``NO_COLOR``);
    ``?`` when it rests on the absence of objects the source may not read (``unreadable``)."""
    if csv.verdict is None:
        return Text("-", style=palette.MUTED)
    if unreadable and is_unreliable(csv.verdict.reason, csv.namespace, unreadable):
        return Text("? (no access)", style=palette.UNKNOWN)
    same = (csv.verdict.phase, csv.verdict.reason) == (csv.phase, csv.reason)
    verdict = f"{csv.verdict.phase}/{csv.verdict.reason}"
    if same:
        return Text(verdict)
    return Text(f"→ {verdict}", style=palette.WARNING_STRONG)


#: Copied CSVs from which their rows are made ahead, while the view shows them hidden
#: (below, making them when ``c`` is pressed is quick).
AHEAD_FROM = 5_000
#: The app's time between two slices of that work, seconds.
AHEAD_PAUSE = 0.02
#: How long the model must stay as it is before that work starts, seconds: a live cluster
#: that keeps changing would otherwise have it started again and again.
AHEAD_WAIT = 1.0


class CSVsScreen(TableScreen):
    VIEW_TITLE = "Operators (CSVs)"
    COLUMNS = (
        Column("namespace", "NAMESPACE", cut="middle"),
        Column("name", "NAME", min_width=22, cut="middle"),
        Column("version", "VERSION", sort="version", cut="never"),
        Column("phase", "PHASE", 12),
        Column("reason", "REASON"),
        Column("verdict", "OLM VERDICT"),
        Column("group", "OPERATORGROUP", cut="middle"),
        Column("copies", "COPIES", 6, sort="number"),
    )
    EMPTY_TEXT = "no ClusterServiceVersions"
    ACCESS_KIND = CSV
    BINDINGS = [Binding("c", "toggle_copies", "Copies"), Binding("x", "xray", "X-ray")]

    def action_xray(self) -> None:
        open_xray(self)

    show_copies = False
    #: The rows with and without the copies, each with what it was built from (the model's
    #: version, the theme): ``c`` flips between them without building a hundred thousand
    #: rows again, and the table finds its filter, sort and scope work on them still made.
    _row_sets: dict[bool, tuple[object, RowSet]]
    #: The rows with the copies, being made while the view shows them hidden.
    _ahead: RowsAhead | None = None

    def action_toggle_copies(self) -> None:
        # The header says it ("+ copies"), redrawn in the same frame as the rows: a toast
        # would be one more layout of the screen, after the rows (the slowest part of ``c``).
        self.show_copies = not self.show_copies
        self.refresh_data()

    def title_note(self) -> str:
        return " + copies" if self.show_copies else ""

    def refresh_data(self) -> None:
        # With many copies the table keeps the height of every row with them, shown or not:
        # ``c`` then lays out nothing around it (the detail pane would shrink or grow with
        # the table, a second and a third layout after the rows). With few, the pane keeps
        # the room the CSVs' rows leave, and ``c`` is quick anyway.
        if not self.parts_present():  # before its children are mounted, or as they go
            return
        model = self.session.model
        many = model.copied_csvs().present >= AHEAD_FROM
        self.table.rows_for_height = (
            sum(1 + len(model.copies_of(c.namespace, c.name)) for c in model.csvs()) if many else 0
        )
        super().refresh_data()
        self._start_ahead()

    def row_set(self) -> RowSet:
        built_from = (self.session.analysis.shown_stamp(), self.app.theme)
        kept = {
            copies: entry
            for copies, entry in getattr(self, "_row_sets", {}).items()
            if entry[0] == built_from  # the other set is dropped once the model moves
        }
        ahead = self._ahead
        if ahead is not None and (ahead.built_from != built_from or self.show_copies):
            self._ahead = None
            if ahead.built_from == built_from:
                kept.setdefault(True, (built_from, ahead.finish()))  # what is left, now
        entry = kept.get(self.show_copies)
        if entry is None:
            rows = RowSet(self._rows(self.show_copies))
            entry = kept[self.show_copies] = (built_from, rows)
        self._row_sets = kept
        return entry[1]

    def _start_ahead(self) -> None:
        """With the copies hidden and many of them (``AHEAD_FROM``), make their rows while
        the app is idle, for the first ``c``."""
        built_from = (self.session.analysis.shown_stamp(), self.app.theme)
        ahead = self._ahead
        if (
            self.show_copies
            or True in self._row_sets
            or (ahead is not None and ahead.built_from == built_from)
            or self.session.model.copied_csvs().present < AHEAD_FROM
        ):
            return
        self._ahead = RowsAhead(self._rows(True), built_from)
        self.set_timer(AHEAD_WAIT, partial(self._step_ahead, self._ahead))

    def _step_ahead(self, ahead: RowsAhead) -> None:
        built_from = (self.session.analysis.shown_stamp(), self.app.theme)
        if ahead is not self._ahead or ahead.built_from != built_from:
            return  # taken by ``c``, or the model moved: the next refresh starts again
        if not ahead.step():
            self.set_timer(AHEAD_PAUSE, partial(self._step_ahead, ahead))
            return
        self._ahead = None
        rows = ahead.finish()
        rows.widths(self.COLUMNS)  # what the table measures on them, made now too
        self._row_sets.setdefault(True, (built_from, rows))

    def build_rows(self) -> Iterable[Row]:
        return list(self._rows(self.show_copies))

    def _rows(self, with_copies: bool) -> Iterator[Row]:
        model = self.session.model
        unreadable = self.session.store.unreadable
        self._csvs = {(c.namespace, c.name): c for c in model.csvs()}
        for c in model.csvs():
            copies = model.copies_of(c.namespace, c.name)
            yield Row(
                ("csv", c.namespace, c.name),
                (
                    c.namespace,
                    c.name,
                    c.version or "-",
                    phase(c.phase),
                    c.reason or "-",
                    verdict_text(c, unreadable),
                    c.operator_group or "-",
                    str(len(copies)),
                ),
            )
            if with_copies:
                yield from self._copy_rows(c, copies)

    def _copy_rows(self, csv: CSVState, copies: list[str]) -> Iterator[Row]:
        """A copy's rows show the phase and reason the copy carries: OLM writes its parent's
        phase with reason ``Copied`` (R-COPY-4), and a copy no longer refreshed keeps an older
        one. The cells after the namespace, and what ``/`` matches in them, are built once
        per (phase, reason) and shared: a Text per row is most of the cost of showing a
        hundred thousand copies."""
        get = self.session.store.get
        shared: dict[tuple[str | None, str | None], tuple[tuple[Cell, ...], str]] = {}
        for ns in copies:
            copy_status = (get(CSV, ns, csv.name) or {}).get("status") or {}
            key = (copy_status.get("phase"), copy_status.get("reason"))
            cells = shared.get(key)
            if cells is None:
                tail: tuple[Cell, ...] = (
                    csv.name,
                    csv.version or "-",
                    phase(key[0]),
                    f"{key[1] or '-'} from {csv.namespace}",
                    "-",
                    csv.operator_group or "-",
                    "",
                )
                cells = shared[key] = (tail, Row(None, tail).haystack())
            yield Row(("copy", ns, csv.name), (ns, *cells[0]), "dim", f"{ns.lower()} {cells[1]}")

    def describe_stamp(self) -> object:
        """A row's detail reads the model (and is styled in the theme), nothing of the view's."""
        return (self.session.analysis.shown_stamp(), self.app.theme)

    def describe(self, key: Hashable) -> RenderableType:
        if not isinstance(key, tuple):
            return Text("")
        csv: CSVState | None = getattr(self, "_csvs", {}).get(key[1:])
        if key[0] == "copy":
            return self._describe_copy(key[1], key[2])
        if csv is None:
            return Text("")
        status = Text(f"{csv.phase or '-'} / {csv.reason or '-'}")
        if csv.message:
            status.append(f": {csv.message}")
        parts: list[RenderableType] = [
            line("CSV", f"{csv.ref}  {csv.display_name or ''} {csv.version or ''}"),
            line("status", status),
        ]
        if csv.verdict is not None:
            unsure = is_unreliable(csv.verdict.reason, csv.namespace, self.session.store.unreadable)
            parts.append(
                line(
                    "OLM verdict",
                    f"{csv.verdict.phase}/{csv.verdict.reason}: "
                    f"{csv.verdict.message} ({csv.verdict.rule})"
                    + ("; unsure: it rests on objects olmtui may not read" if unsure else ""),
                )
            )
        session = self.session
        clock = session.clock() if session.clock is not None else None
        support = support_line(
            session.store, session.analysis.catalogs(), clock, (CSV, csv.namespace, csv.name)
        )
        if support is not None:  # R-LCY-2: only with a lifecycle document for its package
            parts.append(line("lifecycle", support))
        parts += [
            line("OperatorGroup", csv.operator_group or "none"),
            line("API reconciliation (R-API-5)", csv.api_reconciliation or "-"),
            line("provided APIs", names(csv.provided_apis)),
            line("required APIs", names(csv.required_apis)),
            line("replaces", csv.replaces or "-"),
        ]
        for c in csv.conflicts:
            parts.append(
                Text(
                    f"conflict with {c.operator_group}: {', '.join(c.apis)} in "
                    f"{names(c.namespaces)}",
                    style=palette.ERROR,
                )
            )
        sub = self.session.analysis.subscription_for_csv(csv)
        if sub is not None:
            parts.append(
                line(
                    SUBSCRIPTION,
                    f"{sub.ref} ({sub.package}, channel "
                    f"{sub.channel or 'default'}); g shows its upgrade graph",
                )
            )
        copies = self.session.model.copies_of(csv.namespace, csv.name)
        parts.append(section(f"Copies ({len(copies)}; c shows them as rows)"))
        parts.append(Text(names(copies, 60, empty="none")))
        return Group(*parts)

    def _describe_copy(self, namespace: str, name: str) -> Text:
        copy_status = (self.session.store.get(CSV, namespace, name) or {}).get("status") or {}
        out = Text(f"Copied CSV {namespace}/{name}: ")
        out.append_text(phase(copy_status.get("phase")))
        out.append(f" / {copy_status.get('reason') or '-'}")
        if copy_status.get("message"):
            out.append(f": {copy_status['message']}")
        out.append(
            "\nA copy carries its parent's phase with reason Copied (R-COPY-4): OLM copies a "
            "CSV into every namespace its group targets so users there see the operator "
            "(R-COPY-2)."
        )
        return out

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        if not isinstance(key, tuple):
            return None
        return ObjectRef(CSV, key[1], key[2])
