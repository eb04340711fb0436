"""The way out of a ClusterExtension whose installed bundle holds the next OpenShift minor, as
operator-controller would follow it (R-CUP-7).

Naming a newer bundle is not enough: the extension's own spec decides what operator-controller
installs. Its version constraint (``spec.source.catalog.version``, R-V1-12/R-V1-14) may pin the
capped bundle, its channels (R-V1-13) may not hold the newer one, and under ``CatalogProvided``
each resolution picks only a direct successor of the installed bundle (R-V1-15), so a bundle
two edges away is reached over two reconciles. The way out is therefore computed with the
resolver itself (``rules/v1/resolve.py``), reconcile after reconcile until it settles
(:func:`upgrades`): the spec as it is may already lead to a bundle whose cap allows the next
minor; else the lowest such bundle above the installed one is tried with the constraint set to
its version (one edge), then to ``<=`` it (successor by successor), and named only when the
resolver then ends there. Otherwise what stands in the way is said (``missing``): no such bundle
in the content, not in the channels asked for, no upgrade path from the installed bundle, or the
catalog content not given (then nothing is claimed).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.primitives.version import parse_version, version_key
from olmtui.model.records.catalog import Bundle, Catalog, Package
from olmtui.model.rules.cluster_readiness.cap_value import allows
from olmtui.model.rules.documented.cluster_upgrade import Minor, next_minor, shown_minor
from olmtui.model.rules.v1.resolve import V1Resolution, resolve_extension
from olmtui.objects import Obj, spec, status

#: The field a way out changes.
VERSION_FIELD = "spec.source.catalog.version"
_SELF_CERTIFIED = "SelfCertified"
#: How many reconciles in a row :func:`upgrades` follows (a catalog's chain is shorter; a
#: hostile one with a cycle of versions must still end).
MAX_RECONCILES = 32
#: How many of the lowest bundles that would allow the next minor are tried as targets: the
#: way out is the lowest reachable one, and a hostile package of thousands of them must not
#: cost a walk each.
MAX_TARGETS = 8


@frozen
class ExtensionWayOut:
    """Where a capped extension can go. ``target``: the bundle whose cap allows the next
    minor that the resolver ends at (``None`` when none is shown to be reachable).
    ``constraint``: ``spec.source.catalog.version`` as written (``""``: none).
    ``patched``: the constraint to set for the resolver to end at ``target``; ``None`` when
    the spec leads there already (``automatic``) or when no constraint does. ``path``: each
    resolution on the way, the last one installing ``target``. ``missing``: what stands in
    the way, in words, when ``target`` is ``None``."""

    target: Bundle | None
    constraint: str
    patched: str | None = None
    path: tuple[V1Resolution, ...] = ()
    automatic: bool = False
    missing: str | None = None


def _catalog_request(extension: Obj) -> Mapping[str, Any]:
    source = spec(extension).get("source")
    catalog = source.get("catalog") if isinstance(source, Mapping) else None
    return catalog if isinstance(catalog, Mapping) else {}


def with_constraint(extension: Obj, constraint: str) -> Obj:
    """``extension`` with ``spec.source.catalog.version`` set to ``constraint`` (copied on
    the path, the rest shared)."""
    extension_spec = dict(spec(extension))
    source = dict(extension_spec.get("source") or {})
    source["catalog"] = {**_catalog_request(extension), "version": constraint}
    extension_spec["source"] = source
    return {**extension, "spec": extension_spec}


def with_installed(extension: Obj, resolution: V1Resolution) -> Obj:
    """``extension`` as operator-controller leaves it once it installed the bundle
    ``resolution`` picked: ``status.install.bundle`` names it (R-V1-3)."""
    bundle = {"name": resolution.bundle or "", "version": resolution.version or ""}
    extension_status = {**status(extension), "install": {"bundle": bundle}}
    return {**extension, "status": extension_status}


def installed_name(extension: Obj) -> str:
    install = status(extension).get("install")
    bundle = install.get("bundle") if isinstance(install, Mapping) else None
    return str(bundle.get("name") or "") if isinstance(bundle, Mapping) else ""


def upgrades(
    extension: Obj, cluster_catalogs: Sequence[Obj], content: Mapping[str, Catalog]
) -> tuple[tuple[V1Resolution, ...], V1Resolution]:
    """What operator-controller installs, one reconcile after another, from ``extension``'s
    spec: each resolution that moves to another bundle (R-V1-15: one direct successor per
    resolution), and the last one, which keeps the installed bundle, fails or is unknown."""
    moves: list[V1Resolution] = []
    seen = {installed_name(extension)}
    current = extension
    for _ in range(MAX_RECONCILES):
        found = resolve_extension(current, cluster_catalogs, content)
        if found.bundle is None or found.bundle in seen:
            return tuple(moves), found
        moves.append(found)
        seen.add(found.bundle)
        current = with_installed(current, found)
    return tuple(moves), moves[-1]


def _channels(extension: Obj) -> tuple[str, ...]:
    channels = _catalog_request(extension).get("channels")
    return tuple(c for c in channels if isinstance(c, str)) if isinstance(channels, list) else ()


def _in_channels(package: Package, bundle: str, channels: Sequence[str]) -> bool:
    """R-V1-13: an entry of one of ``channels`` (unknown names ignored)."""
    return any(
        any(e.name == bundle for e in package.channels[c].entries)
        for c in channels
        if c in package.channels
    )


def _ends_allowed(moves: Sequence[V1Resolution], package: Package, current: Minor) -> Bundle | None:
    """The bundle the last move installs, when its cap allows the next minor."""
    if not moves:
        return None
    bundle = package.bundles.get(moves[-1].bundle or "")
    return bundle if bundle is not None and allows(bundle, current) else None


def extension_way_out(
    extension: Obj,
    installed: str | None,
    package: Package | None,
    cluster_catalogs: Sequence[Obj],
    content: Mapping[str, Catalog],
    current: Minor,
) -> ExtensionWayOut:
    """R-CUP-7: the way out of ``extension`` (installed at version ``installed``) whose
    bundle holds the minor after ``current``; ``package`` is the package as the content that
    holds the installed bundle shows it, ``content`` the content per ClusterCatalog name
    (``content_by_catalog``)."""
    constraint = str(_catalog_request(extension).get("version") or "")
    target = shown_minor(next_minor(current))
    if package is None:
        return ExtensionWayOut(
            None,
            constraint,
            missing="its catalog content is not given (--catalog), so which bundle allows "
            f"{target}, and whether its spec admits one, is not known",
        )
    moves, last = upgrades(extension, cluster_catalogs, content)
    if last.unknown is not None:
        return ExtensionWayOut(
            None,
            constraint,
            missing=f"what operator-controller would resolve is not known: {last.unknown}",
        )
    reached = _ends_allowed(moves, package, current)
    if reached is not None:
        return ExtensionWayOut(reached, constraint, path=moves, automatic=True)
    floor = version_key(installed)
    fits = sorted(
        (
            b
            for b in package.bundles.values()
            if parse_version(b.version or "") is not None
            and version_key(b.version) > floor
            and allows(b, current)
        ),
        key=lambda b: version_key(b.version),
    )
    if not fits:
        return ExtensionWayOut(
            None,
            constraint,
            missing=f"the catalog content given has no bundle of {package.name} above "
            f"{installed or 'the installed one'} whose cap allows {target}",
        )
    for bundle in fits[:MAX_TARGETS]:
        # one edge (the version pinned), else successor by successor up to it
        for tried in (str(bundle.version), f"<={bundle.version}"):
            moved, _ = upgrades(with_constraint(extension, tried), cluster_catalogs, content)
            reached = _ends_allowed(moved, package, current)
            if reached is not None:
                return ExtensionWayOut(reached, constraint, patched=tried, path=moved)
    return ExtensionWayOut(
        None, constraint, missing=_why_not(extension, package, fits[0], installed)
    )


def _why_not(extension: Obj, package: Package, bundle: Bundle, installed: str | None) -> str:
    """Why no version constraint makes the resolver end at ``bundle`` (the lowest that
    would allow the next minor), in words."""
    channels = _channels(extension)
    named = f"{bundle.name} (version {bundle.version})"
    if channels and not _in_channels(package, bundle.name, channels):
        held = [c for c in package.channels if _in_channels(package, bundle.name, (c,))]
        where = f"; it is in {', '.join(held)}" if held else ""
        return (
            f"{named} is in no channel the extension asks for ({', '.join(channels)}{where}), "
            "and which channel to follow is a choice olmtui does not make (R-V1-13)"
        )
    if _catalog_request(extension).get("upgradeConstraintPolicy") == _SELF_CERTIFIED:
        return f"the resolver does not pick {named} even with the version pinned to it"
    return (
        f"no chain of upgrade edges leads from the installed {installed or 'bundle'} to "
        f"{named} ({'in channels ' + ', '.join(channels) if channels else 'in any channel'}): "
        "operator-controller only moves to a direct successor (R-V1-15)"
    )


def _route(way: ExtensionWayOut) -> str:
    """How operator-controller gets there: the edge, or each version on the way."""
    if len(way.path) == 1:
        return f"({way.path[0].via})"
    steps = ", then ".join(str(r.version) for r in way.path)
    return f"one successor at a time: {steps}"


def way_out_text(way: ExtensionWayOut, name: str, current: Minor, *, command: bool = True) -> str:
    """The way out in words, with the ``oc patch`` command when the spec must change (and
    ``command``: a finding's remedy shows it already)."""
    target = shown_minor(next_minor(current))
    uninstall = "or uninstall it (its CRs and operands stay)."
    bundle = way.target
    if bundle is not None and way.automatic:
        return (
            f"Its spec already lets operator-controller upgrade it to {bundle.name} (version "
            f"{bundle.version}), whose cap allows {target}, {_route(way)}: let that upgrade "
            f"complete, {uninstall}"
        )
    if bundle is not None and way.patched is not None:
        said = f'"{way.constraint}"' if way.constraint else "unset"
        why = (
            f"its version constraint {said} does not admit it"
            if way.constraint
            else "without a version constraint operator-controller does not end there"
        )
        return (
            f"{bundle.name} (version {bundle.version}) allows {target}, but {why}: change "
            f'{VERSION_FIELD} from {said} to "{way.patched}"'
            + (f" ({patch_command(name, way.patched)})" if command else "")
            + f" and operator-controller upgrades it {_route(way)}; {uninstall}"
        )
    return f"No upgrade that allows {target} is shown to work: {way.missing}; {uninstall}"


def patch_command(name: str, version: str) -> str:
    """The ``oc patch`` that sets an extension's version constraint (shown, never run)."""
    catalog = {"version": version}
    body = json.dumps({"spec": {"source": {"catalog": catalog}}}, separators=(",", ":"))
    return f"oc patch clusterextension {shlex.quote(name)} --type merge -p {shlex.quote(body)}"
