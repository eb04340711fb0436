"""``olmtui snapshot``: save what olmtui reads from the live cluster as YAML, so that
``olmtui check`` and replay can look at the same state later, or on another machine.

The objects are written as olmtui's cache holds them (managedFields and CSV icons dropped,
copied CSVs as the metadata they were read as), PackageManifests included. A path ending in
``.yaml``/``.yml`` gets one multi-document file; any other path is a directory with one file
per kind. Either reads back with ``olmtui check PATH`` to the same model.

A kind olmtui may not read (RBAC) is not saved, and that is said: on stderr, and in the
snapshot as a ``SnapshotAccess`` document (``snapshot_access``), so that a later ``check`` or
replay of it says "no access", never "none" (R-SRC-3).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import yaml

from olmtui.errors import UsageError
from olmtui.sources.cluster.live_args import add_connection_arguments, options_from_args
from olmtui.sources.snapshots.snapshot_access import FILE_NAME, access_document
from olmtui.store import KINDS, Obj, Store

NAME = "snapshot"
HELP = "Save the live cluster's OLM objects as YAML (one file, or a directory per kind)."

SINGLE_FILE_SUFFIXES = (".yaml", ".yml")

try:
    Dumper: type[yaml.CSafeDumper | yaml.SafeDumper] = yaml.CSafeDumper
except AttributeError:  # PyYAML built without libyaml
    Dumper = yaml.SafeDumper


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE|DIR",
        help="FILE.yaml for one multi-document file, or a directory (one file per kind)",
    )
    add_connection_arguments(parser, once=True)


def run(args: argparse.Namespace) -> int:
    from olmtui.sources.cluster.live_once import read_cluster_once

    target = Path(args.output)
    single = target.suffix.lower() in SINGLE_FILE_SUFFIXES
    if single and target.is_dir():
        raise UsageError(f"{target} is a directory; give a FILE.yaml or a directory path")
    if not single and target.exists() and not target.is_dir():
        raise UsageError(f"{target} exists and is not a directory")
    store = Store()
    load = read_cluster_once(options_from_args(args), store, catalog_content=False)
    written = save_snapshot(store, target, single=single)
    for finding in load.findings:
        print(f"olmtui: {finding.severity}: {finding.message}", file=sys.stderr)
    for why in sorted(store.unreadable.values(), key=lambda why: why.scope):
        print(
            f"olmtui: warning: no access to {why.scope} (RBAC): {why.reason}; not saved, and "
            "the snapshot records it, so reading it back says 'no access', not 'none'",
            file=sys.stderr,
        )
    print(f"olmtui: saved {len(store)} objects from {', '.join(load.paths)} to {written}")
    return 0


def save_snapshot(store: Store, target: Path, *, single: bool) -> Path:
    """Write the store's objects in a stable order (kind, namespace, name), then what could
    not be read (``Store.unreadable``) as a SnapshotAccess document (R-SRC-3)."""
    refused = [access_document(store.unreadable)] if store.unreadable else []
    try:
        if single:
            target.parent.mkdir(parents=True, exist_ok=True)
            _dump(itertools.chain(_objects(store, KINDS), refused), target)
        else:
            target.mkdir(parents=True, exist_ok=True)
            for kind in KINDS:
                if store.count(kind):
                    _dump(_objects(store, (kind,)), target / f"{kind.lower()}s.yaml")
            if refused:
                _dump(iter(refused), target / FILE_NAME)
            else:  # an earlier snapshot's refusals are not this one's
                (target / FILE_NAME).unlink(missing_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def _objects(store: Store, kinds: tuple[str, ...]) -> Iterator[Obj]:
    for kind in kinds:
        for _, obj in sorted(store.items(kind), key=lambda item: (item[0].namespace, item[0].name)):
            yield obj


def _dump(objs: Iterator[Obj], path: Path) -> None:
    with path.open("w", encoding="utf-8") as stream:
        yaml.dump_all(
            objs,
            stream,
            Dumper=Dumper,
            explicit_start=True,
            sort_keys=False,
            default_flow_style=False,
            allow_unicode=True,
        )
