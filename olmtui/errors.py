"""Errors every layer may raise and only the command line turns into output.

``UsageError`` lives here, not in ``olmtui.cli``, so that sources and commands can raise it
without importing the CLI (which imports them: that was a cycle).
"""

from __future__ import annotations


class UsageError(Exception):
    """A problem with the user's input: printed as one line, exit status 2."""
