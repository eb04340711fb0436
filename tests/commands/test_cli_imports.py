"""Start-up: ``olmtui --help`` and the command line's own import load no more than the
parser needs. The screens (Textual, Rich), the HTTP client and the report package are
imported by the command that uses them, when it runs: ``check`` on a small snapshot spent
more CPU importing them than reading it."""

from __future__ import annotations

import json
import subprocess
import sys

#: Packages none of which ``olmtui.cli`` and its parser may import.
NOT_AT_START = (
    "textual",
    "rich",
    "aiohttp",
    "kubernetes_asyncio",
    "olmtui.ui",
    "olmtui.report",
    "olmtui.pipeline",
)

_PROBE = """
import json, sys
import olmtui.cli
olmtui.cli.build_parser()
print(json.dumps(sorted(sys.modules)))
"""


def test_the_command_line_and_its_parser_import_no_screen_client_or_report() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = json.loads(done.stdout)
    pulled = [m for m in loaded if m.startswith(NOT_AT_START)]
    assert pulled == []
