"""What olmtui's screens use of their app, declared where the screens can name it.

The screens open objects, the Resolution view and the previous view through the app, and
read its session and change log. Typed as Textual's ``App`` those calls were unchecked (a
``# type: ignore`` each); the app's own module imports every screen, so the screens cannot
name it without a cycle. :class:`OlmAppBase` declares what they use; ``OlmApp`` (``ui/app``)
is the one class built on it, and ``OlmScreen.app`` is typed with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App

from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.change_log import ChangeLog
from olmtui.pipeline.session import Session


class OlmAppBase(App[object]):
    """olmtui's app as its screens see it; ``OlmApp`` implements every method."""

    #: What the dashboard shows: the cache, the model and the source behind them.
    session: Session
    #: The Changes view's log of what happened to the objects.
    change_log: ChangeLog

    def open_object(
        self, ref: ObjectRef, tab: str = "summary", extra: Sequence[tuple[str, ObjectRef]] = ()
    ) -> None:
        """Push the detail of ``ref`` (``extra``: (relation, object) pairs to offer too)."""
        raise NotImplementedError

    def show_resolution(self, namespace: str, subscription: str | None = None) -> None:
        """Push the Resolution view of ``namespace`` (about ``subscription`` if given)."""
        raise NotImplementedError

    def go_back(self) -> None:
        """Esc: close the pushed screen, else return to the previous view."""
        raise NotImplementedError

    def moved_in_time(self) -> None:
        """A recording's time cursor moved: draw the screen shown again now."""
        raise NotImplementedError

    def run_command_line(self, line: str) -> None:
        """A ``:`` line typed in a view's prompt."""
        raise NotImplementedError
