"""What operator-controller would resolve a ClusterExtension to, from the catalog content
given: one bundle, or its exact error text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field, replace
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.primitives.go_text import go_quote
from olmtui.model.primitives.semver_range import RangeError, parse_range
from olmtui.model.primitives.version import Version, parse_version_strict
from olmtui.model.records.catalog import Bundle, Catalog, Channel, ChannelEntry, Package
from olmtui.model.rules.v1.catalog_selector import SelectorError, catalog_labels, catalog_selector
from olmtui.model.rules.v1.catalogs import priority_of
from olmtui.model.rules.v1.versions import (
    Constraint,
    ConstraintError,
    VersionRelease,
    bundle_version_release,
    legacy_version_release,
    package_version,
    parse_constraint,
)
from olmtui.objects import Obj, name_of, spec, status


@frozen
class V1Resolution:
    """The report's ``resolved``/``error`` of one ClusterExtension.

    ``bundle``/``version``/``catalog`` are set when a bundle is picked; ``error`` holds
    operator-controller's text when none can be; ``unknown`` says why olmtui could not
    compute it offline (a ClusterCatalog without content given): then all else is None.
    ``deprecations`` are the messages (package, channel, bundle) that apply to the pick.
    ``via`` says what admitted the pick when something is installed: the channel entry's
    ``replaces``/``skips``/``skipRange`` edge, ``SelfCertified``, or the installed version
    itself (nothing would change)."""

    bundle: str | None = None
    version: str | None = None
    catalog: str | None = None
    error: str | None = None
    unknown: str | None = None
    deprecations: tuple[str, ...] = ()
    via: str | None = None


def content_by_catalog(
    catalogs: Sequence[Catalog], cluster_catalogs: Sequence[Obj]
) -> dict[str, Catalog]:
    """ClusterCatalog name -> its content: content bound with ``--catalog NAME=PATH``
    (a ref without ``/``), else content given without a binding, which serves every
    ClusterCatalog."""
    bound = {c.ref: c for c in catalogs if c.for_cluster_catalog and c.graph == "catalog"}
    unbound = next((c for c in catalogs if c.ref is None and c.graph == "catalog"), None)
    out: dict[str, Catalog] = {}
    for obj in cluster_catalogs:
        name = name_of(obj)
        content = bound.get(name, unbound)
        if content is not None:
            out[name] = content
    return out


#: The dependency properties OLM v1 refuses in a picked bundle (R-V1-19).
_UNSUPPORTED = frozenset(("olm.package.required", "olm.gvk.required", "olm.constraint"))
_WALK = "error walking catalogs: "


class _Failure(Exception):
    """operator-controller's error for this ClusterExtension; the text is exact."""


@frozen
class _Installed:
    """``status.install.bundle`` as the successor rules read it (R-V1-15)."""

    name: str
    version_text: str
    version: Version
    version_release: VersionRelease


@frozen
class _Request:
    """What the ClusterExtension asks for (R-V1-2) and what is installed (R-V1-3)."""

    package: str
    version: str
    channels: tuple[str, ...]
    self_certified: bool
    selector: Any
    #: The installed bundle's name and version text as written, or None.
    installed: tuple[str, str] | None
    #: Parsed installed bundle, or the text of the error parsing it (R-V1-15).
    parsed: _Installed | str | None = None
    constraint: Constraint | None = field(default=None)


@frozen
class _Pick:
    """One catalog's best candidate (R-V1-17)."""

    bundle: Bundle
    version_text: str | None
    catalog: str
    priority: int
    package: Package
    via: str | None


def _explicit_release(version: Version, release: str) -> VersionRelease:
    """``ParseExplicitRelease`` for an installed bundle whose status carries ``release``."""
    if not release:
        return VersionRelease(version)
    problems = []
    for i, segment in enumerate(release.split(".")):
        try:
            parse_version_strict(f"0.0.0-{segment}")
        except ValueError as exc:
            problems.append(f"segment {i}: {exc}")
    if problems:
        detail = "\n".join(problems)
        quoted = go_quote(release)
        raise ValueError(f"error parsing release {quoted}: invalid release {quoted}: {detail}")
    return VersionRelease(version, parse_version_strict(f"0.0.0-{release}").pre)


def _parse_installed(bundle: Obj) -> _Installed | str:
    """R-V1-15: the installed version+release, or operator-controller's error text for it."""
    name, text = str(bundle.get("name") or ""), str(bundle.get("version") or "")
    release = bundle.get("release")
    try:
        if release is None:
            version_release = legacy_version_release(text)
        else:
            try:
                version = parse_version_strict(text)
            except ValueError as exc:
                raise ValueError(f"error parsing version {go_quote(text)}: {exc}") from None
            version_release = _explicit_release(version, str(release))
    except ValueError as exc:
        why = "failed to get version and release of installed bundle"
        if release is not None:
            why = "failed to parse installed bundle version and release"
        return f"{_WALK}error finding upgrade edges: {why}: {exc}"
    return _Installed(name, text, parse_version_strict(text), version_release)


def _request(extension: Obj) -> _Request:
    catalog = (spec(extension).get("source") or {}).get("catalog") or {}
    channels = catalog.get("channels") or []
    installed_bundle = (status(extension).get("install") or {}).get("bundle")
    installed = None
    if isinstance(installed_bundle, dict):
        installed = (
            str(installed_bundle.get("name") or ""),
            str(installed_bundle.get("version") or ""),
        )
    self_certified = catalog.get("upgradeConstraintPolicy") == "SelfCertified"
    return _Request(
        package=str(catalog.get("packageName") or ""),
        version=str(catalog.get("version") or ""),
        channels=tuple(str(c) for c in channels) if isinstance(channels, list) else (),
        self_certified=self_certified,
        selector=catalog.get("selector"),
        installed=installed,
        # R-V1-15: successors only when something is installed and the policy is not
        # SelfCertified (R-V1-16).
        parsed=(
            _parse_installed(installed_bundle)
            if isinstance(installed_bundle, dict) and not self_certified
            else None
        ),
    )


#: A package's channel entries by bundle name, with their channel: what R-V1-13 and R-V1-15
#: look a bundle up in (built once per catalog, not once per bundle).
_Entries = dict[str, list[tuple[Channel, ChannelEntry]]]


def _entries(channels: Sequence[Channel]) -> _Entries:
    out: _Entries = {}
    for channel in channels:
        for entry in channel.entries:
            out.setdefault(entry.name, []).append((channel, entry))
    return out


def _edge(entries: Sequence[tuple[Channel, ChannelEntry]], installed: _Installed) -> str | None:
    """R-V1-15 (1): the channel entry (of the bundle) that makes it a direct successor of the
    installed bundle's name or version, described; None when there is none."""
    for channel, entry in entries:
        if entry.replaces == installed.name:
            return f"replaces {installed.name} in channel {channel.name}"
        if installed.name in entry.skips:
            return f"skips {installed.name} in channel {channel.name}"
        if entry.skip_range:
            # R-V1-15: skipRange is blang's grammar, as in OLM v0; unparsable admits nothing.
            try:
                if parse_range(entry.skip_range).contains(installed.version):
                    return f"skipRange {entry.skip_range!r} in channel {channel.name}"
            except RangeError:
                pass
    return None


def _candidate(
    bundle: Bundle, request: _Request, entries: _Entries, filtered: bool
) -> tuple[bool, str | None]:
    """Whether ``bundle`` passes R-V1-13, R-V1-14 and R-V1-15 (ANDed), and what admitted it.
    ``entries`` are those of the requested channels when ``filtered``, else of all."""
    # R-V1-13: in one of the requested channels (unknown channel names are ignored).
    if filtered and bundle.name not in entries:
        return False, None
    version_release = bundle_version_release(package_version(bundle.properties))
    # R-V1-14 / R-V1-12: the range applies to the version only (release ignored).
    if request.constraint is not None and (
        version_release is None or not request.constraint.contains(version_release.version)
    ):
        return False, None
    if request.installed is None:
        return True, None
    installed = request.parsed
    if not isinstance(installed, _Installed):
        return True, "SelfCertified"  # R-V1-16: any bundle passing the filters
    # R-V1-15 (2): the installed version+release itself may stay.
    if version_release is not None and version_release.key == installed.version_release.key:
        return True, "installed"
    via = _edge(entries.get(bundle.name, ()), installed)
    return via is not None, via


def _rank(bundle: Bundle) -> tuple[Any, ...]:
    """R-V1-17 inside a catalog: not deprecated first, then the highest version+release;
    bundles without a valid version last (R-V1-11)."""
    version_release = bundle_version_release(package_version(bundle.properties))
    valid = version_release is not None
    return (bundle.deprecation is None, valid, version_release.key if version_release else ())


def _catalog_pick(name: str, priority: int, package: Package, request: _Request) -> _Pick | None:
    """R-V1-10..R-V1-17 inside one catalog: its best candidate, if any."""
    wanted = request.channels
    # R-V1-13: the filtered channel set is also the only source of upgrade edges.
    entries = _entries([c for c in package.channels.values() if not wanted or c.name in wanted])
    candidates: list[tuple[Bundle, str | None]] = []
    for bundle in package.bundles.values():
        ok, via = _candidate(bundle, request, entries, bool(request.channels))
        if ok:
            candidates.append((bundle, via))
    if not candidates:
        return None
    # Python's sort is stable with reverse=True, as Go's SortStableFunc keeps FBC order.
    bundle, via = sorted(candidates, key=lambda c: _rank(c[0]), reverse=True)[0]
    return _Pick(bundle, package_version(bundle.properties), name, priority, package, via)


def _not_served(cluster_catalog: Obj) -> bool:
    """R-V1-9: a catalog whose Serving condition is not True fails the resolution. A snapshot
    object without any status is not known to be unserved: with its content given it counts
    as serving (olmtui's choice); without, it is unknown like any catalog without content."""
    catalog_status = status(cluster_catalog)
    if not isinstance(catalog_status, dict) or not catalog_status:
        return False
    return not any(
        isinstance(c, dict) and c.get("type") == "Serving" and c.get("status") == "True"
        for c in catalog_status.get("conditions") or ()
    )


def _walk(
    request: _Request, catalogs: Sequence[Obj], content: Mapping[str, Catalog]
) -> tuple[list[_Pick], list[str]]:
    """R-V1-9/R-V1-10: each selected catalog in name order (as the API server lists them);
    the first one that fails ends the walk with its error. Returns the picks and the names of
    catalogs whose content is not given (olmtui cannot tell what they hold)."""
    picks: list[_Pick] = []
    unknown: list[str] = []
    edge_error = request.parsed if isinstance(request.parsed, str) else None
    for cluster_catalog in catalogs:
        name = name_of(cluster_catalog)
        if _not_served(cluster_catalog):
            if unknown and edge_error:
                break  # an unread catalog before this one might have failed first
            raise _Failure(
                f"{_WALK}error getting package {go_quote(request.package)} from catalog "
                f"{go_quote(name)}: catalog {go_quote(name)} is not being served"
            )
        if name not in content:
            unknown.append(name)
            continue
        package = content[name].packages.get(request.package)
        if package is None:
            continue  # R-V1-10: this catalog contributes nothing
        if edge_error:
            if unknown:
                break
            raise _Failure(edge_error)
        priority = priority_of(spec(cluster_catalog).get("priority"))
        pick = _catalog_pick(name, priority, package, request)
        if pick is not None:
            picks.append(pick)
    return picks, unknown


def _resolution_error(request: _Request, catalogs: Sequence[str]) -> str:
    """R-V1-18: operator-controller's ``resolutionError`` text."""
    parts = []
    if request.installed is not None:
        parts.append(
            f"error upgrading from currently installed version {go_quote(request.installed[1])}:"
        )
    verb = "found bundles" if len(catalogs) > 1 else "no bundles found"
    parts.append(f"{verb} for package {go_quote(request.package)}")
    if request.version:
        parts.append(f"matching version {go_quote(request.version)}")
    if request.channels:
        parts.append(f"in channels [{' '.join(request.channels)}]")
    if len(catalogs) > 1:
        parts.append(f"in multiple catalogs with the same priority [{' '.join(sorted(catalogs))}]")
    return " ".join(parts).strip()


def _deprecations(pick: _Pick, request: _Request) -> tuple[str, ...]:
    """The package, channel and bundle deprecation messages that apply to the pick: channels
    that list it (only the requested ones when channels are requested)."""
    package = pick.package
    messages = [package.deprecation] if package.deprecation else []
    for channel in package.channels.values():
        if request.channels and channel.name not in request.channels:
            continue
        if channel.deprecation and any(e.name == pick.bundle.name for e in channel.entries):
            messages.append(channel.deprecation)
    if pick.bundle.deprecation:
        messages.append(pick.bundle.deprecation)
    return tuple(messages)


def _validate(pick: _Pick) -> str | None:
    """R-V1-19: the winner's version must read, and it may not declare dependencies."""
    name = go_quote(pick.bundle.name)
    if pick.version_text is None:
        return (
            f"error getting resolved bundle version for bundle {name}: "
            f"no package property found in bundle {name}"
        )
    try:
        legacy_version_release(pick.version_text)
    except ValueError as exc:
        return f"error getting resolved bundle version for bundle {name}: {exc}"
    for kind, _value in pick.bundle.properties:
        if kind in _UNSUPPORTED:
            return (
                f"validating bundle {name}: bundle {name} has a dependency declared via "
                f"property {go_quote(kind)} which is currently not supported"
            )
    return None


def _choose(request: _Request, picks: list[_Pick]) -> V1Resolution:
    """R-V1-17 across catalogs, then R-V1-18/R-V1-19."""
    # R-V1-17: a non-deprecated pick anywhere beats deprecated ones, before priority.
    if any(p.bundle.deprecation is None for p in picks):
        picks = [p for p in picks if p.bundle.deprecation is None]
    if len(picks) > 1:
        ordered = sorted(picks, key=lambda p: -p.priority)
        if ordered[0].priority != ordered[1].priority:
            picks = [ordered[0]]
    if len(picks) != 1:
        # R-V1-18: none, or a tie on the highest priority (every survivor is named).
        return V1Resolution(error=_resolution_error(request, [p.catalog for p in picks]))
    pick = picks[0]
    if error := _validate(pick):
        return V1Resolution(error=error)
    return V1Resolution(
        bundle=pick.bundle.name,
        version=pick.version_text,
        catalog=pick.catalog,
        deprecations=_deprecations(pick, request),
        via=pick.via,
    )


def resolve_extension(
    extension: Obj, cluster_catalogs: Sequence[Obj], content: Mapping[str, Catalog]
) -> V1Resolution:
    """Resolve one ClusterExtension over the ClusterCatalogs read and the content
    given per ClusterCatalog name (``content_by_catalog``)."""
    request = _request(extension)
    # R-V1-8 (1): the selector, with apimachinery's error.
    try:
        selected = catalog_selector(request.selector)
    except SelectorError as exc:
        return V1Resolution(error=f"desired catalog selector is invalid: {exc}")
    # R-V1-8 (2): the version range, with Masterminds' error.
    if request.version:
        try:
            request = replace(request, constraint=parse_constraint(request.version))
        except ConstraintError as exc:
            return V1Resolution(
                error=f"desired version range {go_quote(request.version)} is invalid: {exc}"
            )
    if not cluster_catalogs:
        # R-V1-9 (olmtui): no ClusterCatalog read may mean none was gathered; unknown, not
        # "no bundles found".
        return V1Resolution(unknown="no ClusterCatalog among the objects read")
    # R-V1-9: selector over labels + the name label; Unavailable catalogs do not exist.
    catalogs = sorted(
        (
            c
            for c in cluster_catalogs
            if selected(catalog_labels(c)) and spec(c).get("availabilityMode") != "Unavailable"
        ),
        key=name_of,
    )
    try:
        picks, unknown = _walk(request, catalogs, content)
    except _Failure as failure:
        return V1Resolution(error=str(failure))
    if unknown:
        # R-V1-9 (olmtui): the resolution depends on content that was not given.
        names = ", ".join(unknown)
        return V1Resolution(
            unknown=f"no catalog content given for ClusterCatalog {names} (--catalog NAME=PATH)"
        )
    return _choose(request, picks)
