"""The clusters of a fleet (``olmtui check --fleet``): which targets the user's flags, PATHs
and targets file name, each with a unique name.

A target is one cluster, read exactly as a single ``check`` would read it: a kubeconfig
context (live) or one snapshot path (a must-gather folder or tarball, or any snapshot). A
folder of several must-gathers is several clusters, one target each, found by the same
must-gather detection the loader uses (``snapshot_files.select_files``), where a single
``check`` refuses it. A target that cannot be named well (a kubeconfig that cannot be read, a
path that does not exist) is still a target: it is reported with status ``bad-input``,
never dropped (R-FLT-1).

A targets file holds one target a line; blank lines and ``#`` comments are skipped:

- ``context:NAME``: the context NAME of the default kubeconfig (or of the one ``--kubeconfig``);
- ``kubeconfig:PATH`` (its current context) or ``kubeconfig:PATH#CONTEXT``;
- anything else: a snapshot path (relative to the file's own folder).

Names: the context's name, or the path's base name (``.tar.gz`` and the like dropped); a name
given twice gets ``-2``, ``-3``... in the order the targets were given.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from olmtui.errors import UsageError
from olmtui.sources.cluster.live_config import kubeconfig_contexts
from olmtui.sources.snapshots.snapshot_files import (
    ARCHIVE_SUFFIXES,
    MUST_GATHER_TREES,
    is_archive,
    select_files,
)

TargetKind = Literal["live", "snapshot"]
#: Longest targets file read (bytes): a fleet's list of names, not a cluster dump.
MAX_TARGETS_FILE = 4 << 20
_TRAILING_COMMENT = re.compile(r"\s+#")
#: The file a must-gather tree is listed as, unlisted (``_pruned_listing``).
_STAND_IN = "listed.yaml"


@dataclass(frozen=True)
class Target:
    """One cluster of the fleet. ``problem``: why it cannot be read at all, known before
    reading (it is then reported ``bad-input`` with that reason)."""

    name: str
    kind: TargetKind
    paths: tuple[str, ...] = ()
    kubeconfig: str | None = None
    context: str | None = None
    problem: str | None = None

    @property
    def shown(self) -> str:
        """What the target reads, as the user would write it."""
        if self.kind == "snapshot":
            return " ".join(self.paths)
        where = self.kubeconfig or "default kubeconfig"
        return f"{where}#{self.context}" if self.context else where


@dataclass(frozen=True)
class TargetSpec:
    """What the command line says to read (``check --fleet``'s flags)."""

    contexts: Sequence[str] = ()
    all_contexts: bool = False
    kubeconfigs: Sequence[str] = ()
    paths: Sequence[str] = ()
    targets_file: str | None = None


def fleet_targets(spec: TargetSpec) -> list[Target]:
    """Every target the spec names, in the order given, names made unique; UsageError only
    when the spec names nothing, or the targets file itself cannot be read."""
    found: list[Target] = []
    found += _live_targets(spec)
    for path in spec.paths:
        found += path_targets(path)
    if spec.targets_file is not None:
        default_config = spec.kubeconfigs[0] if len(spec.kubeconfigs) == 1 else None
        found += file_targets(spec.targets_file, default_config)
    if not found:
        raise UsageError(
            "--fleet needs targets: --context, --all-contexts, --kubeconfig, PATHs or --targets"
        )
    return unique_names(_without_repeats(found))


def _live_targets(spec: TargetSpec) -> list[Target]:
    kubeconfigs: list[str | None] = list(spec.kubeconfigs) or [None]
    if spec.contexts and len(spec.kubeconfigs) > 1:
        raise UsageError(
            "--context with several --kubeconfig files is ambiguous: name each one in a "
            "--targets file (kubeconfig:PATH#CONTEXT)"
        )
    if spec.contexts:
        return [_context_target(kubeconfigs[0], c) for c in spec.contexts]
    if spec.all_contexts:
        return [t for config in kubeconfigs for t in _all_contexts(config)]
    return [_current_context(config) for config in spec.kubeconfigs]


def _context_target(kubeconfig: str | None, context: str) -> Target:
    return Target(context, "live", kubeconfig=kubeconfig, context=context)


def _all_contexts(kubeconfig: str | None) -> list[Target]:
    try:
        names, _ = kubeconfig_contexts(kubeconfig)
    except UsageError as exc:
        return [_bad_kubeconfig(kubeconfig, str(exc))]
    if not names:
        return [_bad_kubeconfig(kubeconfig, "the kubeconfig holds no context")]
    return [_context_target(kubeconfig, name) for name in names]


def _current_context(kubeconfig: str | None) -> Target:
    try:
        _, current = kubeconfig_contexts(kubeconfig)
    except UsageError as exc:
        return _bad_kubeconfig(kubeconfig, str(exc))
    if not current:
        return _bad_kubeconfig(kubeconfig, "the kubeconfig has no current-context")
    return _context_target(kubeconfig, current)


def _bad_kubeconfig(kubeconfig: str | None, problem: str) -> Target:
    name = _base_name(kubeconfig) if kubeconfig else "kubeconfig"
    return Target(name, "live", kubeconfig=kubeconfig, problem=problem)


def path_targets(path: str) -> list[Target]:
    """The clusters one PATH holds: a folder of several must-gathers (or of archives and
    nothing else) is one target each; anything else is one target, read as ``check PATH``
    reads it (its own errors become its ``bad-input`` reason when it is read)."""
    if not os.path.isdir(path):
        problem = None if os.path.exists(path) else f"no such file or directory: {path}"
        return [Target(_base_name(path), "snapshot", (path,), problem=problem)]
    inner = _clusters_in(path)
    if len(inner) < 2:
        return [Target(_base_name(path), "snapshot", (path,))]
    return [Target(name, "snapshot", (p,)) for name, p in _inner_names(path, inner)]


def _inner_names(folder: str, inner: list[str]) -> list[tuple[str, str]]:
    """Each cluster of a folder named by the folder's entry that holds it (``case-1`` for
    ``case-1/must-gather.local.123/``: the ``must-gather.local.N`` names ``oc`` writes say
    nothing), or by its path below the folder when one entry holds several."""
    relative = [os.path.relpath(p, folder).replace(os.sep, "/") for p in inner]
    firsts = [r.split("/", 1)[0] for r in relative]
    return [
        (_base_name(first) if firsts.count(first) == 1 else rel, path)
        for first, rel, path in zip(firsts, relative, inner, strict=True)
    ]


def _clusters_in(folder: str) -> list[str]:
    """The must-gathers below ``folder`` (the loader's own detection); for a folder of
    archives and no YAML, the archives."""
    relative = _pruned_listing(folder)
    gathers = select_files(relative).must_gathers
    if gathers and gathers != [""]:
        return [os.path.join(folder, g) for g in gathers]
    if gathers:
        return []
    top = sorted(f for f in relative if "/" not in f)
    archives = [f for f in top if is_archive(f)]
    if archives and not select_files(relative).files:
        return [os.path.join(folder, a) for a in archives]
    return []


def _pruned_listing(folder: str) -> list[str]:
    """The files below ``folder`` that tell where its must-gathers are, as ``select_files``
    reads them: a folder holding a must-gather tree (``namespaces/``,
    ``cluster-scoped-resources/``) is a root and is not descended into (one stand-in file
    per tree says so: a must-gather is thousands of files, a folder of fifty of them took
    seconds to list whole); every other file is listed."""
    relative: list[str] = []
    for where, dirs, files in os.walk(folder):
        dirs.sort()
        prefix = os.path.relpath(where, folder).replace(os.sep, "/")
        prefix = "" if prefix == "." else prefix + "/"
        trees = [d for d in dirs if d in MUST_GATHER_TREES]
        if trees:
            relative += [f"{prefix}{tree}/{_STAND_IN}" for tree in trees]
            dirs.clear()
        relative += [prefix + f for f in files]
    return relative


def file_targets(path: str, kubeconfig: str | None = None) -> list[Target]:
    """The targets of a targets file (the module's docstring says its lines)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_TARGETS_FILE + 1)
    except OSError as exc:
        raise UsageError(f"cannot read targets file {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_TARGETS_FILE:
        raise UsageError(f"targets file {path} is larger than {MAX_TARGETS_FILE >> 20} MiB")
    base = os.path.dirname(path)
    found: list[Target] = []
    for line in data.decode("utf-8", "replace").splitlines():
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        # a trailing comment follows a blank (``kubeconfig:PATH#CONTEXT`` has none)
        found += _line_target(_TRAILING_COMMENT.split(text, 1)[0], base, kubeconfig)
    return found


def listed_targets(lines: Sequence[str], base: str = "") -> list[Target]:
    """The targets of lines written as a targets file's (the MCP server's ``fleet`` tool),
    paths relative to ``base``, names made unique; a line naming nothing is refused."""
    found: list[Target] = []
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            raise UsageError(
                f"target {line!r} names nothing: context:NAME, kubeconfig:PATH or a path"
            )
        found += _line_target(text, base, None)
    return unique_names(_without_repeats(found))


def _line_target(text: str, base: str, kubeconfig: str | None) -> list[Target]:
    if text.startswith("context:"):
        return [_context_target(kubeconfig, text.removeprefix("context:").strip())]
    if text.startswith("kubeconfig:"):
        config, _, context = text.removeprefix("kubeconfig:").partition("#")
        config = os.path.join(base, config.strip())
        if context.strip():
            return [_context_target(config, context.strip())]
        return [_current_context(config)]
    return path_targets(os.path.join(base, text))


def _base_name(path: str) -> str:
    name = Path(path.rstrip("/\\") or path).name or path
    for suffix in ARCHIVE_SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or name
    return name


def _without_repeats(targets: Iterable[Target]) -> list[Target]:
    """The same cluster named twice is read once."""
    seen: set[tuple[object, ...]] = set()
    kept: list[Target] = []
    for t in targets:
        key = (t.kind, t.paths, t.kubeconfig, t.context, t.problem)
        if key not in seen:
            seen.add(key)
            kept.append(t)
    return kept


def unique_names(targets: Sequence[Target]) -> list[Target]:
    """Each target under a name no other has: ``NAME``, then ``NAME-2``, ``NAME-3``..."""
    taken = {t.name for t in targets}
    used: set[str] = set()
    named: list[Target] = []
    for t in targets:
        name, n = t.name, 1
        while name in used or (n > 1 and name in taken):
            n += 1
            name = f"{t.name}-{n}"
        used.add(name)
        named.append(t if name == t.name else dataclasses.replace(t, name=name))
    return named
