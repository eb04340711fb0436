"""The base of olmtui's screens: the app they run in, typed as olmtui's own.

Textual types ``Screen.app`` as any ``App``; the screens call olmtui's navigation
(``open_object``, ``show_resolution``, ``go_back``, ``run_command_line``) and read its change
log, so without this each call was an unchecked attribute (``# type: ignore``). They see it
as :class:`~olmtui.ui.app_base.OlmAppBase` (the app's module imports every screen); the
type checker alone is told (``textual.getters.app``, as Textual documents it): at run time
the screen's app is the running one, olmtui's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.screen import Screen

if TYPE_CHECKING:
    from textual import getters

    from olmtui.ui.app_base import OlmAppBase


class OlmScreen(Screen[None]):
    """A screen of olmtui's app (views, object details)."""

    if TYPE_CHECKING:
        app = getters.app(OlmAppBase)

    #: The children a refresh writes to (selectors). Fast keys can have the app refresh a
    #: screen before its children are mounted, or as they are torn down (``NoMatches`` seen
    #: in CI): a refresh then shows nothing instead of ending the app.
    REFRESH_PARTS: ClassVar[tuple[str, ...]] = ()

    def parts_present(self) -> bool:
        """Whether every child a refresh writes to is there now (``REFRESH_PARTS``)."""
        return all(self.query(selector) for selector in self.REFRESH_PARTS)
