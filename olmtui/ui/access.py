"""How a screen says that the source may not read a kind (``Store.unreadable``): an empty
view is "no access", never "nothing there", and rows kept from before access was lost are
marked as the last data seen."""

from __future__ import annotations

import time

from olmtui.model.rules.input.access import minutes
from olmtui.store import Unreadable


def recheck_text(unreadable: Unreadable) -> str:
    if unreadable.recheck is None:
        return "not re-checked"
    return f"re-checked every {minutes(unreadable.recheck)}"


def empty_text(unreadable: Unreadable) -> str:
    """What an empty view of an unreadable kind says instead of its usual empty text."""
    return f"no access to {unreadable.scope} (RBAC): {recheck_text(unreadable)}"


def stale_text(unreadable: Unreadable) -> str:
    """The banner over rows read before access was lost."""
    since = time.strftime("%H:%M", time.localtime(unreadable.since))
    shown = (
        "showing the last data seen"
        if unreadable.namespaces is None
        else f"rows in {', '.join(unreadable.namespaces)}, if any, are the last seen"
    )
    return (
        f"no access to {unreadable.scope} since {since} (RBAC) — {shown}; "
        f"{recheck_text(unreadable)}"
    )
