"""The olmtui Textual app: views as modes (``:`` switches, Esc goes back), drill-downs as
pushed screens, and one ticker that coalesces model changes into a few refreshes a second."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import tempfile
from collections.abc import Awaitable, Callable, Hashable, Iterable, Sequence
from typing import Any

from textual import events
from textual.app import App, ScreenStackError, SystemCommand
from textual.binding import Binding
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen

from olmtui import gc_pause
from olmtui.kinds import CLUSTER_EXTENSION, CSV, NAMESPACE, SUBSCRIPTION
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.change_log import ChangeLog
from olmtui.pipeline.marks import Mark, compared, mark
from olmtui.pipeline.related import Relation
from olmtui.pipeline.session import ContextUnavailable, InputUnavailable, Session
from olmtui.safe_text import visible
from olmtui.ui import completion, palette, views
from olmtui.ui.app_base import OlmAppBase
from olmtui.ui.inert import InertFilter
from olmtui.ui.loading_bar import LoadingMarks, follow_loading
from olmtui.ui.object_finder import ObjectsProvider
from olmtui.ui.screens.base import TableScreen, ViewScreen
from olmtui.ui.screens.compare import CompareScreen
from olmtui.ui.screens.extension_graph import extension_graph
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.screens.resolution import ResolutionScreen
from olmtui.ui.styles import stylesheet

#: How often the ticker looks for model changes (seconds): "a few refreshes per second".
REFRESH_INTERVAL = 0.25
#: The blank mode shown while ``:ctx`` rebuilds every view on the new session.
SWITCHING = "switching-context"
#: After a change arrives, how long to wait for more before redrawing (coalescing).
SETTLE = 0.1
#: The palette's time commands on a recording: (title, keys, changes, minutes).
TIME_COMMANDS = (
    ("Time: one change back", "[", -1, 0),
    ("Time: one change on", "]", 1, 0),
    ("Time: a minute back", "{", 0, -1),
    ("Time: a minute on", "}", 0, 1),
)
#: What ``:at`` alone says: the forms of a moment (``sources/recording/moments.py``).
AT_FORMS = ":at 10:05, :at -15m, :at 2026-11-28T10:05:00Z (UTC), :at end"


class OlmApp(OlmAppBase):
    """Read-only: no action here changes the cluster."""

    TITLE = "olmtui"
    CSS_PATH = [stylesheet("app.tcss")]
    COMMANDS = App.COMMANDS | {ObjectsProvider}
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        # k9s, kubectl and every shell habit: ctrl+c ends the program (Textual's default
        # only tells you to press ctrl+q). Priority, so no focused input swallows it.
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        # less habit: q leaves what you look at; on a view with nothing pushed, the program
        Binding("q", "leave", "Back/Quit", show=False),
        # a recording (``olmtui replay FILE``): the time cursor, by change and by minute
        Binding("left_square_bracket", "time_step(-1)", "Change back", show=False),
        Binding("right_square_bracket", "time_step(1)", "Change on", show=False),
        Binding("left_curly_bracket", "time_minutes(-1)", "Minute back", show=False),
        Binding("right_curly_bracket", "time_minutes(1)", "Minute on", show=False),
        # lazygit's mark-and-compare: m keeps the state shown, M compares it with now
        Binding("m", "mark", "Mark this state", show=False),
        Binding("M", "compare", "Compare with the mark", show=False),
    ]

    def __init__(self, session: Session, initial_view: str = "overview") -> None:
        super().__init__()
        self.session = session
        self.initial_view = views.resolve(initial_view) or "overview"
        self._history: list[str] = []
        #: What the current screen was last refreshed for (``Analysis.shown_stamp``).
        self._seen_version: Hashable = -1
        #: ``:ns NAME``: the namespace every view shows (``None``: all of them).
        self.namespace_scope: str | None = None
        self.change_log = ChangeLog(session.store)
        self._signals: list[int] = []
        self._object_screens: set[str] = set()
        for spec in views.VIEWS:
            self.add_mode(spec.name, self._factory(spec))
        self.add_mode(SWITCHING, Screen)
        self._palette_pushed = False
        self._use_theme_palette()
        #: A snapshot streaming in (``ui/loading_bar.py``): what shows it, until it ends.
        self._loading = LoadingMarks()
        #: The net under every widget: no control or bidi character reaches the terminal.
        self._inert_filter = InertFilter()
        #: ``m``: the state marked, kept across cursor moves and ``:ctx`` (``M`` compares).
        self.marked: Mark | None = None
        #: After ``M``: the rows each view marks (``+`` new, ``~`` changed since the mark)
        #: and a count that moves whenever they change (the views' stamp).
        self.row_marks: dict[ObjectRef, str] = {}
        self.row_marks_generation = 0

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the one that keeps cluster text inert (``ui/inert.py``):
        every line of every widget passes through them before it is written."""
        return [*super().get_line_filters(), self._inert_filter]

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A toast, its message and title shown inert: they may name cluster objects (a
        completion's namespaces, a context's error)."""
        super().notify(
            visible(message, keep_newlines=True),
            title=visible(title),
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    def _factory(self, spec: views.ViewSpec) -> Callable[[], Screen[Any]]:
        return lambda: spec.screen(self.session, views.command_words())

    def on_mount(self) -> None:
        # The cache loaded so far is long-lived: keep the cyclic collector from walking its
        # millions of objects on every full collection (they are still freed when dropped;
        # cycles among them are freed by the tick's compaction).
        gc_pause.freeze_all()
        self.switch_mode(self.initial_view)
        self._history = [self.initial_view]
        self._seen_version = self.session.analysis.shown_stamp()
        self.set_interval(REFRESH_INTERVAL, self._tick)
        self._settling = False
        self.session.store.subscribe(self._on_store_changes)
        self.start_source(self.session)
        self._exit_on_signals()
        self.theme_changed_signal.subscribe(self, self._on_theme_changed)

    def _exit_on_signals(self) -> None:
        """Closing the terminal (SIGHUP) or ``kill`` (SIGTERM) ends the app the way ``q``
        does, so what the command holds is released: the demo stops its API server and
        removes its temporary kubeconfig."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGHUP, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self.exit)
                self._signals.append(signum)

    # -- theme -----------------------------------------------------------------------------
    def _use_theme_palette(self) -> None:
        """Define the screens' olm.* styles from the current theme (``ui/palette.py``)."""
        if self._palette_pushed:
            self.console.pop_theme()
        self.console.push_theme(palette.rich_theme(self.get_css_variables()))
        self._palette_pushed = True

    def _on_theme_changed(self, _theme: object) -> None:
        """A new theme: new olm.* colours, and the shown screens re-render their text
        (the other views do when they come back, see ``ViewScreen.on_screen_resume``)."""
        self._use_theme_palette()
        for screen in self.screen_stack:
            if isinstance(screen, ViewScreen) and screen.is_mounted:
                screen.restyle()

    # -- refresh coalescing ----------------------------------------------------------------
    def on_unmount(self) -> None:
        self.change_log.close()
        self.session.store.unsubscribe(self._on_store_changes)
        loop = asyncio.get_running_loop()
        for signum in self._signals:
            loop.remove_signal_handler(signum)
        self._signals.clear()

    def _on_store_changes(self, _changes: object) -> None:
        """Redraw soon after a change, once for a burst of them; the ticker stays the
        upper bound on how often a view is rebuilt."""
        if not self._settling:
            self._settling = True
            self.set_timer(SETTLE, self._settled)

    def _settled(self) -> None:
        self._settling = False
        self._tick()

    def _tick(self) -> None:
        gc_pause.compact_frozen()  # now and then: frees the cycles dropped while frozen
        # the resolver's findings follow the model in a worker; one landing moves the stamp
        self.session.analysis.follow_resolution(self)
        time = self.session.time
        if time is not None:  # a recording: when each finding appeared, in a worker (R-REC-5)
            time.follow(self)
        try:
            screen = self.screen
        except ScreenStackError:  # between modes: the new mode's screen is not up yet
            return
        # a snapshot streaming in: its bar, and a full redraw (with findings) when it ends
        if follow_loading(self.session, screen, self._loading):
            self._seen_version = -1
            loading = self.session.loading
            if loading is not None and (loading.error is not None or loading.crash is not None):
                self.exit(return_code=2)  # the command says why, once the screen is gone
                return
        # list views and pushed details alike follow the model (graphs are ViewScreens)
        if isinstance(screen, ViewScreen | ObjectScreen) and screen.is_mounted:  # not composing
            screen.redraw_header()
            version = self._shown_stamp()
            if version != self._seen_version:
                self._seen_version = version
                with self.batch_update():
                    screen.refresh_data()
            elif isinstance(screen, TableScreen) and screen.ages_stale():
                with self.batch_update():
                    screen.refresh_data()  # nothing changed but the time: the ages move

    def _shown_stamp(self) -> Hashable:
        """What the screen shown was drawn from: the analysis, and a recording's cursor
        (a minute on with no change moves only the clock; finding times become known)."""
        time = self.session.time
        stamp = self.session.analysis.shown_stamp()
        return stamp if time is None else (stamp, time.stamp())

    # -- a recording's time cursor -----------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The time keys act on a recording only; elsewhere they are free."""
        if action in ("time_step", "time_minutes"):
            return self.session.time is not None
        return True

    def action_time_step(self, changes: int) -> None:
        """``[`` / ``]``: one change back / on."""
        if self.session.time is not None:
            self.session.time.step(changes)
            self.moved_in_time()

    def action_time_minutes(self, minutes: int) -> None:
        """``{`` / ``}``: a minute back / on."""
        if self.session.time is not None:
            self.session.time.step_minutes(minutes)
            self.moved_in_time()

    def action_mark(self) -> None:
        """``m``: keep the state shown now (a recording's cursor, a live cluster now, an
        input), to compare with later (``M``)."""
        self.marked = mark(self.session)
        self._set_row_marks({})
        self.notify(
            f"marked: {self.marked.label}; move or switch, then M compares",
            title="m",
            markup=False,
        )

    def action_compare(self) -> None:
        """``M`` (``:compare``): the marked state against the one shown now."""
        if self.marked is None:
            self.notify("M: mark a state first (m)", severity="warning", markup=False)
            return
        comparison = compared(self.marked, self.session)
        self._set_row_marks(comparison.row_marks())
        self.push_screen(CompareScreen(comparison.lines))

    def _set_row_marks(self, marks: dict[ObjectRef, str]) -> None:
        """The rows the views mark now; the view shown is drawn again (the others when
        they are shown)."""
        if marks == self.row_marks:
            return
        self.row_marks = marks
        self.row_marks_generation += 1
        self._seen_version = -1

    def open_input(self, path: str) -> None:
        """``:open PATH``: another input (a snapshot, a must-gather, a recording) in this
        window, read with the same catalog content; the mark stays, so ``M`` compares it."""
        opener = self.session.open_input
        if not path or opener is None:
            self.notify(":open PATH — a snapshot, must-gather or recording", markup=False)
            return
        self.notify(f"opening {path} ...", markup=False)
        self.run_worker(
            self._swap_in(opener(path), f"{path} not opened"),
            group="switch",
            exclusive=True,
            exit_on_error=False,
        )

    def action_unmark(self) -> None:
        """``:unmark``: forget the mark."""
        self.marked = None
        self._set_row_marks({})
        self.notify("mark forgotten", markup=False)

    def time_command(self, moment: str) -> None:
        """``:at MOMENT``: the recording as of that moment (``:at end``: its end). A moment
        the recording does not hold is one line; the cursor stays."""
        time = self.session.time
        if time is None:
            self.notify(":at applies to recordings only", severity="warning", markup=False)
            return
        if not moment:
            self.notify(AT_FORMS, markup=False)
            return
        problem = time.go_to(moment)
        if problem is not None:
            self.notify(problem, title=":at", severity="error", markup=False)
            return
        self.moved_in_time()

    def moved_in_time(self) -> None:
        """The cursor moved: the screen shown is drawn again now, not at the next tick."""
        self._tick()

    # -- :ctx -----------------------------------------------------------------------------
    def switch_context(self, name: str) -> None:
        """``:ctx NAME``: follow another kubeconfig context in this window. The new
        context is reached first; only then is the watcher stopped and every view rebuilt
        on the new session, so a context that cannot be reached leaves the old one up."""
        switch = self.session.switch_context
        if switch is None:
            self.notify(
                ":ctx applies to live sessions only (this is a snapshot or the demo)",
                severity="warning",
                markup=False,
            )
            return
        if not name:
            known = self.session.contexts() if self.session.contexts is not None else []
            self.notify(
                "contexts: " + (", ".join(known) or "none found") + " (:ctx NAME switches)",
                markup=False,
            )
            return
        self.notify(f"connecting to context {name} ...", markup=False)
        self.run_worker(
            self._swap_in(
                switch(name), f"context {name} not used", f"now following context {name}"
            ),
            group="switch",
            exclusive=True,
            exit_on_error=False,
        )

    async def _swap_in(
        self, made: Awaitable[Session], failed: str, done: str | None = None
    ) -> None:
        """The session ``made`` (``:ctx``, ``:open``) swapped in once it is built, then
        ``done`` said; one that cannot be built is one line titled ``failed``, and the old
        session stays. The next-catalog content goes with the window."""
        try:
            session = await made
        except (ContextUnavailable, InputUnavailable) as exc:
            self.notify(str(exc), title=failed, severity="error", markup=False)
            return
        if not session.next_catalogs:
            session.next_catalogs = list(self.session.next_catalogs)
        await self.use_session(session)
        if done is not None:
            self.notify(done, markup=False)

    async def use_session(self, session: Session) -> None:
        """Swap in ``session``: stop the old watcher, rebuild every view on the new one
        (and forget the detail screens bound to the old), keep the view in use."""
        self.workers.cancel_group(self, "source")
        self.change_log.close()
        self.session.store.unsubscribe(self._on_store_changes)
        self.session = session
        self._loading = LoadingMarks()
        self.change_log = ChangeLog(session.store)
        session.store.subscribe(self._on_store_changes)
        self._seen_version = -1
        current = self.current_mode
        self._pop_pushed()
        await self.switch_mode(SWITCHING)
        for spec in views.VIEWS:
            await self.remove_mode(spec.name)
            self.add_mode(spec.name, self._factory(spec))
        for name in self._object_screens:
            self.uninstall_screen(name)
        self._object_screens.clear()
        await self.switch_mode(current)
        self._history = [current]
        self.start_source(session)

    def start_source(self, session: Session) -> None:
        """Run the session's watcher (live, the demo) as the app's "source" worker, which
        :meth:`use_session` stops when another session is swapped in."""
        if session.runner is not None:
            self.run_worker(session.runner(), group="source", exit_on_error=False)

    # -- navigation ------------------------------------------------------------------------
    def show_view(self, name: str) -> bool:
        """Land on the list of view ``name``, never on a screen pushed over it earlier:
        the current view's pushed screens (detail, YAML, graph, help) are closed first, so
        every other view is always at its list when it is switched to."""
        target = views.resolve(name)
        if target is None:
            self.notify(f"no view named {name!r}", severity="warning", markup=False)
            return False
        self._pop_pushed()
        if target != self.current_mode:
            self._history.append(target)
            self.switch_mode(target)
        return True

    def run_command_line(self, line: str) -> None:
        """``:`` input: a view name (k9s style), ``ns [NAME]`` (scope every view to a
        namespace, or clear it), ``res [NAMESPACE]`` (a namespace's resolution), ``ctx NAME``
        or ``q``/``quit``. A view registered in :data:`olmtui.ui.views.VIEWS` is reachable
        here, completes on Tab and is offered by the palette with nothing more to wire."""
        word = line.strip().lstrip(":").strip()
        head, _, arg = word.partition(" ")
        if head.lower() in completion.QUIT_WORDS:
            self.exit()
        elif head.lower() in completion.CONTEXT_WORDS:
            self.switch_context(arg.strip())
        elif head == "ns":
            argument = arg.strip()
            self.set_namespace_scope(None if argument in ("", "-", "all") else argument)
        elif head.lower() in completion.RESOLUTION_WORDS:
            self.resolution_command(arg.strip())
        elif head.lower() == "at":
            self.time_command(arg.strip())
        elif head.lower() == "open":
            self.open_input(arg.strip())
        elif head.lower() in ("mark", "compare", "unmark") and not arg.strip():
            getattr(self, f"action_{head.lower()}")()
        else:
            self.show_view(word)

    def _pop_pushed(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def action_leave(self) -> None:
        """``q``: back from a pushed screen (detail, YAML, graph); quit from a view."""
        if len(self.screen_stack) > 1:
            self.pop_screen()
        else:
            self.exit()

    def set_namespace_scope(self, namespace: str | None) -> None:
        """Scope every view to ``namespace`` (``None``: every namespace). The views filter
        the rows they already built: the current one now, the others when shown again."""
        namespace = namespace or None
        self.namespace_scope = namespace
        screen = self.screen
        if isinstance(screen, ViewScreen) and screen.is_mounted:
            screen.apply_scope()
        # the header names the scope; a toast (a widget mounted and styled) only for a
        # name no Namespace carries, most likely a typo
        if namespace is not None and self.session.store.get(NAMESPACE, "", namespace) is None:
            self.notify(
                f"scope: namespace {namespace}: no such Namespace seen",
                severity="warning",
                timeout=3,
                markup=False,
            )

    # Textual's App.action_back is a coroutine; Textual runs plain and async actions alike,
    # and going back here awaits nothing.
    def action_back(self) -> None:  # type: ignore[override]
        self.go_back()

    def go_back(self) -> None:
        """Esc: close the pushed screen, else return to the previous view."""
        if len(self.screen_stack) > 1:
            self.pop_screen()
        elif len(self._history) > 1:
            self._history.pop()
            self.switch_mode(self._history[-1])

    def _selected(self) -> ObjectRef | None:
        screen = self.screen
        if isinstance(screen, ViewScreen | ObjectScreen):
            return screen.selected_ref()
        return None

    def open_object(
        self, ref: ObjectRef, tab: str = "summary", extra: Sequence[Relation] = ()
    ) -> None:
        """Push the object detail (``extra``: more objects to offer, e.g. a finding's).
        The detail screens are installed once per mode and depth and refilled, so opening
        one costs a refill, not a new screen."""
        depth = sum(1 for s in self.screen_stack if isinstance(s, ObjectScreen))
        name = f"object-{self.current_mode}-{depth}"
        if self.is_screen_installed(name):
            screen = self.get_screen(name)
            assert isinstance(screen, ObjectScreen)
            screen.show(ref, tab, extra)
        else:
            self.install_screen(ObjectScreen(self.session, ref, tab, extra), name)
            self._object_screens.add(name)
        self.push_screen(name)

    def resolution_command(self, namespace: str) -> None:
        """``:res [NAMESPACE]``: that namespace's resolution; without one, the selected
        row's (a Subscription's own view), else the ``:ns`` scope's."""
        if namespace:
            self.show_resolution(namespace)
            return
        selected = self._selected()
        if selected is not None and selected.kind == SUBSCRIPTION:
            self.show_resolution(selected.namespace, selected.name)
        elif selected is not None and (selected.namespace or selected.kind == NAMESPACE):
            self.show_resolution(selected.namespace or selected.name)
        elif self.namespace_scope is not None:
            self.show_resolution(self.namespace_scope)
        else:
            self.notify(
                ":res NAMESPACE — which namespace? (or select a row of one first)",
                severity="information",
                markup=False,
            )

    def action_resolution(self) -> None:
        """``r``: the resolution of the selected Subscription or namespace (on a detail,
        of the object shown)."""
        screen = self.screen
        target = screen.target if isinstance(screen, ObjectScreen) else self._selected()
        if target is not None and target.kind == SUBSCRIPTION:
            self.show_resolution(target.namespace, target.name)
        elif target is not None and target.kind == NAMESPACE:
            self.show_resolution(target.name)
        else:
            self.notify(
                "r: select a Subscription or a namespace (or type :res NAMESPACE)",
                severity="information",
                markup=False,
            )

    def show_resolution(self, namespace: str, subscription: str | None = None) -> None:
        """Push the Resolution view of ``namespace`` (about ``subscription`` if given)."""
        self.push_screen(
            ResolutionScreen(self.session, views.command_words(), namespace, subscription)
        )

    def action_yaml(self) -> None:
        ref = self._selected()
        if ref is not None:
            self.open_object(ref, "yaml")

    def action_graph(self) -> None:
        """``g``: on a list, the graph of the selected row's object; on a detail, of the
        object shown (not of the related row under the cursor)."""
        screen = self.screen
        self.show_graph(screen.target if isinstance(screen, ObjectScreen) else self._selected())

    def show_graph(self, ref: ObjectRef | None) -> None:
        """The upgrade graph of ``ref`` (a Subscription or an operator's CSV), or a note
        saying why there is none."""
        if ref is not None and ref.kind == CLUSTER_EXTENSION:
            self._show_extension_graph(ref.name)
            return
        if ref is not None and ref.kind not in (SUBSCRIPTION, CSV):
            self.notify(
                f"no upgrade graph for this {ref.kind}: g draws the graph of an operator (CSV), "
                "a Subscription or a ClusterExtension",
                severity="information",
                markup=False,
            )
            return
        screen: Screen[None] | None = views.graph_screen(self.session, ref)
        if screen is None:
            self.notify(
                "no upgrade graph: select an operator or Subscription whose package "
                "the catalog content (--catalog or PackageManifests) knows",
                severity="information",
                markup=False,
            )
        else:
            self.push_screen(screen)

    def _show_extension_graph(self, name: str) -> None:
        """``g`` on a ClusterExtension: its package's graph from its catalogs' content."""
        found = extension_graph(self.session, name)
        if isinstance(found, str):
            self.notify(found, severity="information", markup=False)
        else:
            self.push_screen(found)

    def action_help(self) -> None:
        self.push_screen(views.help_screen())

    # -- the palette's Screenshot ------------------------------------------------------------
    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """The palette's Screenshot, saved in the directory olmtui was started from (Textual
        saves in ~/Downloads, which many machines lack: the save failed); the notification
        names the file's full path. Served to a browser (``olmtui serve``), it downloads."""
        return super().deliver_screenshot(filename, path or screenshot_directory(), time_format)

    def on_delivery_complete(self, event: events.DeliveryComplete) -> None:
        if event.name == "screenshot":
            event.prevent_default()  # instead of Textual's notice, which parses the path as markup
            where = f"saved to {event.path}" if event.path is not None else "sent to the browser"
            self.notify(where, title="Screenshot", markup=False)

    def on_delivery_failed(self, event: events.DeliveryFailed) -> None:
        if event.name == "screenshot":
            event.prevent_default()  # Textual's notice does not say why
            self.notify(
                f"not saved: {event.exception}",
                title="Screenshot",
                severity="error",
                markup=False,
            )

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for spec in views.VIEWS:
            yield SystemCommand(
                f"Show {spec.title}",
                f":{spec.name} — {spec.help}",
                lambda name=spec.name: self.show_view(name),
            )
        yield SystemCommand("Show YAML", "y — YAML of the selected object", self.action_yaml)
        yield SystemCommand(
            "Show upgrade graph", "g — graph of the selected operator", self.action_graph
        )
        yield SystemCommand(
            "Show resolution",
            "r — what OLM installs next in the namespace, or why it cannot",
            self.action_resolution,
        )
        yield SystemCommand("Help: olmtui keys", "? — every key of olmtui", self.action_help)
        if self.session.time is not None:  # a recording: its time cursor
            for title, keys, step, minutes in TIME_COMMANDS:
                yield SystemCommand(
                    title,
                    f"{keys} — the recording as of then",
                    lambda s=step, m=minutes: (
                        self.action_time_minutes(m) if m else self.action_time_step(s)
                    ),
                )
        yield SystemCommand("Mark this state", "m — keep it, to compare later", self.action_mark)
        if self.marked is not None:
            yield SystemCommand(
                "Compare with the mark", "M — what changed since the mark", self.action_compare
            )
        yield SystemCommand("Back", "esc — the previous view or screen", self.action_back)
        if isinstance(screen, ViewScreen):
            yield SystemCommand(
                "Filter",
                "/ — filter the rows (/!text inverts)",
                lambda: screen.action_prompt("filter"),
            )
            yield SystemCommand(
                "Clear the filter", "show every row again", lambda: screen.apply_filter("")
            )
        # the screen's own keys (c: copies, c: next channel, ...), so the palette has every action
        for binding in screen.BINDINGS:
            if not isinstance(binding, Binding) or not binding.action.isidentifier():
                continue
            method = getattr(screen, f"action_{binding.action}", None)
            if method is not None and binding.description:
                yield SystemCommand(binding.description, f"{binding.key} — on this screen", method)


def screenshot_directory() -> str:
    """Where the palette's Screenshot goes: the current directory, as an absolute path (the
    notification shows it); the temporary directory when the current one is gone."""
    try:
        return os.getcwd()
    except OSError:
        return tempfile.gettempdir()
