"""The Fleet dashboard's app: olmtui's app over many sessions, one per target, with the
Fleet view (``ui/screens/fleet.py``) as its first screen.

Every target's session is built before the app starts and kept while it runs: Enter swaps
the chosen one in (``OlmApp.use_session``: the views are rebuilt on it, no cluster is read
again) and Esc at the top of its dashboard comes back to the Fleet view. Each live target's
watcher runs for the whole run in a worker of its own, whichever cluster is shown, so its
row stays current; a watcher that ends with an error makes its row say so. ``:ctx`` inside
a live target works as in single-cluster mode: the session it builds is the app's own,
watched while it is shown (the fleet's targets go on unchanged)."""

from __future__ import annotations

from textual.binding import Binding

from olmtui.pipeline.session import Session
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.fleet import Fleet, FleetScreen, FleetTarget

#: The Fleet view's mode.
FLEET = "fleet"


class FleetApp(OlmApp):
    """Read-only, as :class:`OlmApp`."""

    BINDINGS = [
        # from any depth of a target's dashboard, straight back to the fleet
        Binding("F", "fleet", "Fleet", show=False),
    ]

    def __init__(self, fleet: Fleet, first: Session) -> None:
        """``first``: the session the app starts on (a target's, or an empty one when no
        target could be read), shown once a row is opened."""
        super().__init__(first)
        self.fleet = fleet
        self.add_mode(FLEET, lambda: FleetScreen(fleet))
        self.initial_view = FLEET

    def on_mount(self) -> None:
        for entry in self.fleet.entries:
            self._watch(entry)
        super().on_mount()

    def _watch(self, entry: FleetTarget) -> None:
        if entry.session is not None and entry.session.runner is not None:
            self.run_worker(entry.watch(), group=f"fleet-{entry.name}", exit_on_error=False)

    def start_source(self, session: Session) -> None:
        """A target's watcher runs already (:meth:`on_mount`); a ``:ctx`` session's is
        the app's own "source" worker."""
        if not self.fleet.owns(session):
            super().start_source(session)

    def open_target(self, entry: FleetTarget) -> None:
        """Show ``entry``'s dashboard (its Overview) on its session, built already."""
        if entry.session is not None:
            self.run_worker(self._open(entry.session), group="switch", exclusive=True)

    async def _open(self, session: Session) -> None:
        if session is not self.session:
            await self.use_session(session)
        await self.switch_mode("overview")
        self._history = ["overview"]

    def go_back(self) -> None:
        """Esc: as in one cluster's dashboard, and from the top of it, the Fleet view."""
        if len(self.screen_stack) > 1 or len(self._history) > 1:
            super().go_back()
        else:
            self.action_fleet()

    def action_fleet(self) -> None:
        """``F``: the Fleet view, whatever is shown."""
        self._pop_pushed()
        if self.current_mode != FLEET:
            self.switch_mode(FLEET)

    def retry_target(self, entry: FleetTarget) -> None:
        """``r`` on a live target that could not be read: connect it again (in a thread:
        connecting blocks), and watch it when it answers."""
        if entry.session is not None or entry.kind != "live":
            self.notify(f"{entry.name}: r connects a live target that failed", markup=False)
            return
        self.notify(f"connecting to {entry.name} ...", markup=False)

        def connect() -> None:
            fresh = self.fleet.retry(entry.name)
            self.call_from_thread(self._retried, entry, fresh is not None)

        self.run_worker(connect, thread=True, group=f"retry-{entry.name}", exit_on_error=False)

    def _retried(self, entry: FleetTarget, connected: bool) -> None:
        if connected:
            self._watch(entry)
            self.notify(f"{entry.name}: connected", markup=False)
        else:
            self.notify(f"{entry.name}: {entry.reason}", severity="error", markup=False)
