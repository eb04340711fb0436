"""``olmtui whatif``: what OLM would do next if the state were changed, and which findings
that clears or brings.

The input is ``check``'s (PATHs, ``--sample`` or ``--live``, ``--catalog``,
``--global-catalog-namespace``); the changes (``--delete``, ``--approve``, ``--patch``,
``--create``, repeatable) are applied in order to a copy of what was read
(``pipeline/simulation.py``), never to the cluster: a live read stays GET-only.

Exit status: 0, or 1 when the changes bring a new error finding; 2 when an action cannot be
read or applied (unknown kind, object not found, bad FIELD=VALUE, bad YAML) or the input
cannot be used, with one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from olmtui.commands.check import add_input_arguments, session_of
from olmtui.errors import UsageError
from olmtui.kinds import INSTALL_PLAN

NAME = "whatif"
HELP = (
    "Show what OLM would do next after changes to the state (delete, approve, patch, "
    "create), and the findings they clear or bring; nothing is written anywhere."
)
ACTIONS = "actions"


class _Ordered(argparse.Action):
    """Keeps every action flag, in the order given, in one list."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        held = list(getattr(namespace, ACTIONS, None) or [])
        held.append((self.dest, values))
        setattr(namespace, ACTIONS, held)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "KIND is a kind or its short name (csv, sub, og, ip, catsrc, ce, cc); a "
        "cluster-scoped object has an empty NAMESPACE (ce//NAME). exit status: 0, 1 when the "
        "changes bring a new error finding, 2 when an action or the input cannot be used"
    )
    add_input_arguments(
        parser,
        "catalog content for resolution, for one CatalogSource or, without NAMESPACE/NAME=, "
        "for all; repeatable. Without it, a change after which OLM resolves again is "
        "'not simulated'",
    )
    parser.set_defaults(**{ACTIONS: []})
    parser.add_argument(
        "--delete", action=_Ordered, metavar="KIND/NAMESPACE/NAME", help="delete an object"
    )
    parser.add_argument(
        "--approve",
        action=_Ordered,
        metavar="installplan/NAMESPACE/NAME",
        help="approve an InstallPlan (spec.approved: true)",
    )
    parser.add_argument(
        "--patch",
        action=_Ordered,
        nargs=2,
        metavar=("KIND/NAMESPACE/NAME", "FIELD=VALUE"),
        help="set a field, a dotted path (spec.channel=stable, "
        "metadata.annotations.KEY=VALUE); an empty VALUE removes it",
    )
    parser.add_argument(
        "--create", action=_Ordered, metavar="FILE", help="create the object a YAML file holds"
    )
    parser.add_argument(
        "--output",
        choices=("text", "json"),
        default="text",
        help="text (the default) or json (format 1: before and after with their incidents, "
        "cleared, new)",
    )


def _read_object(path: str) -> dict[str, Any]:
    """The one object a ``--create`` file holds (``UsageError`` otherwise)."""
    import yaml

    try:
        text = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"whatif: cannot read {path}: {exc.strerror or exc}") from None
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        documents = [d for d in yaml.load_all(text, Loader=loader) if d is not None]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise UsageError(f"whatif: {path}{where} is not valid YAML") from None
    if len(documents) != 1 or not isinstance(documents[0], dict):
        raise UsageError(f"whatif: {path} must hold one object, not {len(documents)} documents")
    return documents[0]


def changes_of(actions: Sequence[tuple[str, Any]]) -> list[Any]:
    """The ``Change`` records of the action flags, in order (``UsageError`` for one that
    cannot be read)."""
    from olmtui.model.diagnosis.changes import (
        ChangeError,
        parse_assignment,
        parse_ref,
        ref_of,
    )
    from olmtui.model.records.diagnosis import Change

    changes = []
    for flag, value in actions:
        try:
            if flag == "delete":
                changes.append(Change("delete", parse_ref(value)))
            elif flag == "approve":
                target = parse_ref(value)
                if target.kind != INSTALL_PLAN:
                    raise ChangeError(f"--approve takes an InstallPlan, not a {target.kind}")
                changes.append(Change("approve", target))
            elif flag == "patch":
                target = parse_ref(value[0])
                field, text = parse_assignment(value[1])
                changes.append(Change("patch", target, field=field, value=text))
            else:
                body = _read_object(value)
                changes.append(Change("create", ref_of(body), body=body))
        except ChangeError as exc:
            raise UsageError(f"whatif: --{flag}: {exc}") from None
    return changes


def run(args: argparse.Namespace) -> int:
    from olmtui.model.diagnosis.changes import ChangeError
    from olmtui.report.json_report import dump_json
    from olmtui.report.whatif_report import has_new_errors, whatif_json, write_whatif_text

    actions = getattr(args, ACTIONS, None) or []
    if not actions:
        raise UsageError("whatif: give at least one --delete, --approve, --patch or --create")
    changes = changes_of(actions)
    session = session_of(args)
    try:
        # the session is this command's alone, shown nowhere: tried on in place, put back
        answer = session.analysis.whatif(changes, in_place=True)
    except ChangeError as exc:
        raise UsageError(f"whatif: {exc}") from None
    if args.output == "json":
        sys.stdout.write(dump_json(whatif_json(answer)))
    else:
        write_whatif_text(answer, sys.stdout)
    return 1 if has_new_errors(answer.outcome.new) else 0
