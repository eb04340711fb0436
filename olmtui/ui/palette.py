"""Colours by meaning, taken from the app's Textual theme.

Screens style Rich ``Text`` with the names below ("olm.error", "olm.ok" ...), never with
colour names. :func:`rich_theme` turns the current Textual theme into a Rich theme that
defines those names; the app pushes it on its console at start and again on every theme
change (the palette's "Change theme"), so the same Text recolours without being rebuilt.
``NO_COLOR`` is Textual's (it greys every colour out); severity is never colour alone: its
glyph (:data:`SEVERITY_MARK`) or its word goes with it.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.style import Style
from rich.theme import Theme as RichTheme
from textual.color import Color

ERROR = "olm.error"
WARNING = "olm.warning"
WARNING_STRONG = "olm.warning.strong"
INFO = "olm.info"
INFO_STRONG = "olm.info.strong"
OK = "olm.ok"
OK_STRONG = "olm.ok.strong"
MUTED = "olm.muted"
#: What olmtui does not know (no access, an unknown phase): neither good nor bad.
UNKNOWN = "olm.unknown"
UNKNOWN_STRONG = "olm.unknown.strong"

#: The mark each severity carries wherever it is shown, so that it reads without colour.
SEVERITY_MARK = {"error": "✖", "warning": "▲", "info": "●"}

#: name -> (Textual theme variable, bold)
_ROLES: dict[str, tuple[str, bool]] = {
    ERROR: ("text-error", True),
    WARNING: ("text-warning", False),
    WARNING_STRONG: ("text-warning", True),
    INFO: ("text-primary", False),
    INFO_STRONG: ("text-primary", True),
    OK: ("text-success", False),
    OK_STRONG: ("text-success", True),
    UNKNOWN: ("text-secondary", False),
    UNKNOWN_STRONG: ("text-secondary", True),
}


def _colour(variables: Mapping[str, str], name: str) -> Color | None:
    try:
        return Color.parse(variables[name])
    except (KeyError, ValueError):
        return None


def rich_theme(variables: Mapping[str, str]) -> RichTheme:
    """The olm.* styles for a theme's CSS variables (``App.get_css_variables()``); a
    variable the theme lacks leaves its style plain rather than failing."""
    styles: dict[str, Style] = {}
    for name, (variable, bold) in _ROLES.items():
        colour = _colour(variables, variable)
        styles[name] = Style(color=colour.rich_color if colour else None, bold=bold or None)
    # $text-muted is "auto 60%": the foreground 60% of the way over the background
    fg, bg = _colour(variables, "foreground"), _colour(variables, "background")
    muted = fg.blend(bg, 0.4).rich_color if fg and bg else None
    styles[MUTED] = Style(color=muted, dim=muted is None or None)
    return RichTheme(styles, inherit=False)
