"""Errors every layer may raise and only the command line turns into output.

``UsageError`` lives here, not in ``olmtui.cli``, so that sources and commands can raise it
without importing the CLI (which imports them: that was a cycle).

Exit statuses are part of the interface (CI jobs branch on them): 0 no error finding, 1 an
error finding, 2 unusable input, 3 a crash, 4 (``check --fleet``) a target that could not be
read. A crash is a bug in olmtui, never a finding, so it
must not exit 1: it is one line naming the exception and where to report it, exit 3; with
``OLMTUI_DEBUG=1`` the traceback is printed too, for whoever fixes it.
"""

from __future__ import annotations

import os
import traceback
from typing import Any

EXIT_CRASH = 3
#: ``olmtui check --fleet``: at least one target could not be read (unreachable,
#: unauthorized, timed out, bad input; one read in part, ``partial``, was read); the report
#: still holds every target, each with its status (R-FLT-1).
EXIT_UNREAD_TARGET = 4
#: Set (to anything but ``""`` or ``0``) to print a crash's traceback as well.
DEBUG_ENV = "OLMTUI_DEBUG"
#: Where a crash should be reported: the project publishes no tracker address in its metadata.
REPORT_HINT = (
    "this is a bug in olmtui: please report it with the command and the input that caused it"
)


class UsageError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""


class ClusterUnreachable(UsageError):
    """The cluster could not be reached, or was lost while it was read (a fleet target's
    ``unreachable``)."""


class ClusterUnauthorized(UsageError):
    """The cluster refused the credentials (401): a fleet target's ``unauthorized``."""


class ClusterTimedOut(UsageError):
    """The cluster did not answer within the time given: a fleet target's ``timeout``."""


def debug_wanted() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def crash_line(error: BaseException) -> str:
    """The one line a crash prints (without the ``olmtui:`` prefix); the message is cut short
    and may come from the input, so the caller escapes it before printing."""
    text = " ".join(str(error).split())
    if len(text) > 300:
        text = text[:300] + "..."
    kind = type(error).__name__
    return (
        f"internal error: {kind}: {text} ({REPORT_HINT}; {DEBUG_ENV}=1 shows the traceback)"
        if text
        else f"internal error: {kind} ({REPORT_HINT}; {DEBUG_ENV}=1 shows the traceback)"
    )


def print_traceback(error: BaseException) -> None:
    """The full traceback on stderr, for ``OLMTUI_DEBUG``."""
    traceback.print_exception(error)


def run_app(app: Any) -> int:
    """Run a Textual app to its end; re-raise the exception it died of, if any.

    Textual catches an app's exceptions itself, prints a long traceback (with local
    variables, which may hold cluster data) and returns as if nothing happened: the command
    would exit 0. So unless ``OLMTUI_DEBUG`` asks for it, that printout is dropped and the
    exception goes to the command line's one-line crash report instead (exit 3).
    """
    printer = getattr(app, "_print_error_renderables", None)  # Textual's, private: if present
    if printer is not None and not debug_wanted():

        def quiet() -> None:
            if getattr(app, "_exception", None) is None:
                printer()
            else:
                app._exit_renderables.clear()

        app._print_error_renderables = quiet
    app.run()
    error = getattr(app, "_exception", None)
    if isinstance(error, BaseException):
        raise error
    return 0
