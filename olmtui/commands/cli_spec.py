"""``olmtui --spec``: the whole command line as JSON, for agents and automation that drive
olmtui headless: every sub-command, its arguments and options (type, default, choices,
help), its output formats, the exit statuses, and where the report's JSON Schema is.

Read from the argparse parsers themselves (``cli.build_parser``), never kept by hand, so it
cannot drift from what the command line accepts. argparse keeps a parser's arguments and
sub-parsers in attributes without a public reader (``_actions``, ``_choices_actions``); they
have been stable since Python 3.2 and are read here only.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

#: The version of this JSON.
SPEC_FORMAT = 1
#: The options whose choices are a command's output formats.
_OUTPUT_FLAGS = ("--output", "--format")
#: Where the report's JSON Schema is, and how to print it.
REPORT_SCHEMA = {
    "format": 1,
    "command": "olmtui check --schema",
    "file": "olmtui/report/schema.json",
    "describes": "olmtui check --output json",
}


def _type_name(action: argparse.Action) -> str:
    if isinstance(action, argparse._StoreConstAction | argparse._CountAction):
        return "integer" if isinstance(action, argparse._CountAction) else "boolean"
    kind = action.type
    if kind is None or kind is str:
        return "string"
    if kind is int:
        return "integer"
    if kind is float:
        return "number"
    return str(getattr(kind, "__name__", "string"))  # e.g. ``duration``


def _plain(value: Any) -> Any:
    """A default as JSON holds it (argparse's are usually None, a bool, a str or a list)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return str(value)


def _metavar(action: argparse.Action) -> Any:
    metavar = action.metavar
    return list(metavar) if isinstance(metavar, tuple) else metavar


def _argument(action: argparse.Action) -> dict[str, Any]:
    """One argument or option of a parser."""
    entry: dict[str, Any] = {}
    if action.option_strings:
        entry["flags"] = list(action.option_strings)
    else:
        entry["name"] = _metavar(action) or action.dest
    entry.update(
        {
            "type": _type_name(action),
            "nargs": _plain(action.nargs),
            "repeatable": isinstance(action, argparse._AppendAction)
            or hasattr(action, "every")  # --context, --kubeconfig: repeatable with --fleet
            or (not action.option_strings and action.nargs in ("*", "+")),
            "required": bool(action.required),
            "choices": None if action.choices is None else [_plain(c) for c in action.choices],
            "default": None if action.default is argparse.SUPPRESS else _plain(action.default),
            "metavar": _metavar(action) if action.option_strings else None,
            "help": action.help,
        }
    )
    return entry


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def _describe(parser: argparse.ArgumentParser) -> dict[str, Any]:
    """A parser's arguments (positional first, as typed) and options, its output formats and
    its epilog (which states its exit statuses)."""
    shown = [
        a
        for a in parser._actions
        if not isinstance(a, argparse._HelpAction | argparse._SubParsersAction)
    ]
    options = [_argument(a) for a in shown if a.option_strings]
    outputs = next(
        (
            [str(c) for c in a.choices or ()]
            for a in shown
            if any(flag in _OUTPUT_FLAGS for flag in a.option_strings)
        ),
        [],
    )
    return {
        "usage": " ".join(parser.format_usage().split())[len("usage: ") :],
        "arguments": [_argument(a) for a in shown if not a.option_strings],
        "options": options,
        "outputFormats": outputs,
        "epilog": parser.epilog,
    }


def spec_of(
    parser: argparse.ArgumentParser, exit_statuses: Mapping[int, str], version: str
) -> dict[str, Any]:
    """The command line of ``parser`` (the top-level one) as JSON."""
    sub = _subparsers(parser)
    commands = []
    if sub is not None:
        helps = {a.dest: a.help for a in sub._choices_actions}
        for name, command in sub.choices.items():
            commands.append({"name": name, "help": helps.get(name), **_describe(command)})
    return {
        "format": SPEC_FORMAT,
        "program": parser.prog,
        "version": version,
        "description": parser.description,
        # without a sub-command, olmtui is the live dashboard: these are its options
        "dashboard": _describe(parser),
        "commands": commands,
        "exitStatuses": [
            {"status": status, "meaning": meaning} for status, meaning in exit_statuses.items()
        ],
        "reportSchema": REPORT_SCHEMA,
    }
