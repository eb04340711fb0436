"""Upgrade resolution over catalog channel graphs: where a Subscription goes next, and why.

OLM upgrades one hop at a time. The resolver orders each channel by its ``replaces`` chain
(R-UPG-1), takes as candidates the entries whose ``replaces``, ``skips`` or ``olm.skipRange``
admit the installed CSV, and prefers the one nearest the channel head (R-UPG-2); repeating
that from each chosen bundle gives the path the cluster will walk (R-UPG-5). Catalog
validation (``opm``) applies stricter rules of its own (R-UPG-7), reported next to the
resolver's. A PackageManifest only tells the head and the head's skipRange (R-UPG-9), so there
the answer is partial and :func:`unknowable_reason` says what is missing.

Everything here is a pure function over :mod:`olmtui.model.records.catalog` records and raw
Subscription / CSV dicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, Protocol

from olmtui.frozen import frozen
from olmtui.kinds import CATALOG_SOURCE, CSV, SUBSCRIPTION
from olmtui.model.primitives.go_text import go_quote
from olmtui.model.primitives.semver_range import Range, RangeError, parse_range
from olmtui.model.primitives.version import ZERO, Version, parse_version
from olmtui.model.records.catalog import Catalog, Channel, ChannelEntry, Package
from olmtui.model.records.types import (
    ChannelState,
    Finding,
    ObjectRef,
    Severity,
    UpgradeEdge,
    UpgradeInfo,
)
from olmtui.model.rules.catalog.suggestions import channel_suggestion, package_suggestion
from olmtui.model.rules.subscriptions.state import approval
from olmtui.model.rules.upgrades.channel_chain import replacement_chain
from olmtui.objects import Obj, meta, spec, status

EdgeKind = Literal["replaces", "skips", "skipRange"]


def edges_unknown(channel: Channel) -> bool:
    """A channel read from a PackageManifest: the head is reported, entries carry no edges
    (R-UPG-9)."""
    return channel.reported_head is not None


# --- R-UPG-1: the resolver's channel order ----------------------------------------------------


def skipped_names(channel: Channel) -> set[str]:
    """Entries of the channel that another entry of the same channel lists in ``skips``:
    R-UPG-1 leaves them out of the channel order."""
    names = {e.name for e in channel.entries}
    return {s for e in channel.entries for s in e.skips if s in names}


def channel_order(channel: Channel) -> tuple[list[str], list[str]]:
    """R-UPG-1: the channel's replacement chain, head first, or OLM's resolver error.

    Skipped entries and entries the head's chain does not reach are left out. For a
    PackageManifest channel only the reported head is known.
    """
    if edges_unknown(channel):
        return [channel.reported_head or ""], []
    chain, error = replacement_chain(channel.entries, channel.package, channel.name)
    return [e.name for e in chain], [] if error is None else [error]


# --- R-UPG-7: catalog validation (opm) ----------------------------------------------------------


@frozen
class SkipRangeProblem:
    entry: str
    skip_range: str
    error: str


def skip_range_problems(channel: Channel) -> list[SkipRangeProblem]:
    """Entries whose ``olm.skipRange`` blang cannot parse (R-SEM-7, R-UPG-7)."""
    problems = []
    for e in channel.entries:
        if e.skip_range is None:
            continue
        try:
            parse_range(e.skip_range)
        except RangeError as exc:
            problems.append(SkipRangeProblem(e.name, e.skip_range, str(exc)))
    return problems


def _replaces_chain_error(channel: Channel) -> str | None:
    """opm's ``validateReplacesChain``: one head, no cycle, nothing stranded (R-UPG-7)."""
    incoming = {e.replaces for e in channel.entries if e.replaces}
    incoming.update(s for e in channel.entries for s in e.skips)
    heads = sorted({e.name for e in channel.entries if e.name not in incoming})
    if not heads:
        return "no channel head found in graph"
    if len(heads) > 1:
        return f"multiple channel heads found in graph: {', '.join(heads)}"
    by_name = {e.name: e for e in channel.entries}
    skipped = {s for e in channel.entries for s in e.skips}
    walked: dict[str, int] = {}  # entry -> its position on the walk from the head
    reached = {heads[0]}
    current: ChannelEntry | None = by_name[heads[0]]
    while current is not None:
        walked[current.name] = len(walked)
        target = current.replaces or ""
        # A replaces edge to a skipped bundle is disregarded: the walk ends there.
        if target in skipped:
            break
        if target in reached:
            cycle = " -> ".join([*list(walked)[walked[target] :], target])
            return f"detected cycle in replaces chain of upgrade graph: {cycle}"
        reached.add(target)
        current = by_name.get(target)
    stranded = sorted(set(by_name) - reached - skipped)
    if stranded:
        return f"channel contains one or more stranded bundles: {', '.join(stranded)}"
    return None


def validate_channel(channel: Channel) -> list[str]:
    """R-UPG-7: what ``opm validate`` says about the channel (graph, then skipRanges).

    A PackageManifest channel has no edges to check; only its head's skipRange is known.
    """
    errors: list[str] = []
    if not channel.entries:
        errors.append("channel must contain at least one bundle")
    elif not edges_unknown(channel):
        chain_error = _replaces_chain_error(channel)
        if chain_error:
            errors.append(chain_error)
    errors.extend(
        f"invalid bundle {go_quote(p.entry)}: invalid skipRange {go_quote(p.skip_range)} "
        f"in channel {go_quote(channel.name)}: {p.error}"
        for p in skip_range_problems(channel)
    )
    return errors


def channel_states(catalogs: Iterable[Catalog]) -> list[ChannelState]:
    """Every catalog/package/channel with its order and errors, sorted (catalog, package,
    channel); resolver errors (R-UPG-1) come before catalog-validation errors (R-UPG-7)."""
    states = []
    for catalog in catalogs:
        for package in catalog.packages.values():
            for channel in package.channels.values():
                order, errors = channel_order(channel)
                errors += [e for e in validate_channel(channel) if e not in errors]
                states.append(
                    ChannelState(
                        catalog=catalog.ref,
                        package=package.name,
                        channel=channel.name,
                        head=order[0] if order else None,
                        order=tuple(order),
                        errors=tuple(errors),
                    )
                )
    states.sort(key=lambda s: (s.catalog or "", s.package, s.channel))
    return states


# --- R-UPG-2: candidates and the next bundle ----------------------------------------------------


@lru_cache(maxsize=4096)
def _parsed_range(text: str) -> Range | None:
    try:
        return parse_range(text)
    except RangeError:
        return None


def _skip_range(entry: ChannelEntry) -> Range | None:
    """The entry's skipRange, or ``None`` when absent or unparsable (R-SEM-7: ignored)."""
    return None if entry.skip_range is None else _parsed_range(entry.skip_range)


def admitting_edge(entry: ChannelEntry, name: str, version: Version | None) -> EdgeKind | None:
    """Which edge of ``entry`` admits an installed CSV ``name`` at ``version`` (R-UPG-2).

    The three are equal for OLM; when several admit, the label prefers replaces, then
    skips, then skipRange. ``version`` ``None`` (not strict semver) is in no range.
    """
    if entry.replaces == name:
        return "replaces"
    if name in entry.skips:
        return "skips"
    rng = _skip_range(entry)
    if rng is not None and version is not None and rng.contains(version):
        return "skipRange"
    return None


def version_of(text: str | None) -> Version | None:
    """A CSV's or bundle's version for range checks: absent is ``0.0.0`` (R-SEM-7),
    unparsable is ``None`` (no range contains it)."""
    if not text:
        return ZERO
    return parse_version(str(text))


@frozen
class Hop:
    """One upgrade step: ``target`` admitted the CSV ``source`` through edge ``via``."""

    source: str
    target: str
    via: EdgeKind

    def edge(self) -> UpgradeEdge:
        return UpgradeEdge(self.source, self.target, self.via)


class UpgradeGraph:
    """The entries a Subscription can move to, ranked as OLM ranks candidates, indexed so
    the next bundle for any installed CSV is found without scanning the whole channel.

    ``channels`` are the Subscription's channels in OLM's order (R-UPG-2). Each channel is
    ordered by R-UPG-1; a channel OLM cannot order (``errors``) is ranked by version,
    newest first, without its skipped entries, so candidates can still be shown.
    """

    def __init__(self, package: Package, channels: Sequence[Channel]) -> None:
        self.package = package
        self.channels = tuple(channels)
        self._versions: dict[str, Version | None] = {}
        self.errors: dict[str, list[str]] = {}
        self.heads: dict[str, str | None] = {}
        self.skipped: dict[str, set[str]] = {}
        ranked: list[ChannelEntry] = []
        for channel in self.channels:
            by_name = {e.name: e for e in channel.entries}
            order, errors = channel_order(channel)
            self.skipped[channel.name] = skipped_names(channel)
            if errors:
                self.errors[channel.name] = errors
                order = self._version_order(channel)
                self.heads[channel.name] = None
            else:
                self.heads[channel.name] = order[0] if order else None
            ranked.extend(by_name.get(n) or ChannelEntry(n) for n in order)
        self.ranked = ranked
        self._by_replaces: dict[str, list[int]] = {}
        self._by_skips: dict[str, list[int]] = {}
        self._ranges: list[tuple[int, Range]] = []
        for pos, entry in enumerate(ranked):
            if entry.replaces:
                self._by_replaces.setdefault(entry.replaces, []).append(pos)
            for s in entry.skips:
                self._by_skips.setdefault(s, []).append(pos)
            rng = _skip_range(entry)
            if rng is not None:
                self._ranges.append((pos, rng))
        self._next_cache: dict[tuple[str, Version | None], Hop | None] = {}
        self._next_of_entry: dict[str, Hop | None] = {}

    def _version_order(self, channel: Channel) -> list[str]:
        """olmtui's stand-in order for a channel R-UPG-1 cannot order: newest first, still
        without the skipped entries."""
        skipped = skipped_names(channel)
        names = {e.name for e in channel.entries if e.name not in skipped}
        return sorted(names, key=lambda n: (self.version(n) or ZERO, n), reverse=True)

    @property
    def head(self) -> str | None:
        """The head of the first channel (the Subscription's, or the default one)."""
        return self.heads.get(self.channels[0].name) if self.channels else None

    def version(self, name: str) -> Version | None:
        """The catalog bundle's version (absent: ``0.0.0``, unparsable: ``None``)."""
        if name not in self._versions:
            bundle = self.package.bundles.get(name)
            self._versions[name] = version_of(bundle.version if bundle else None)
        return self._versions[name]

    def prohibited(self, name: str) -> bool:
        """Legacy ``olm.deprecated`` bundles can never be newly chosen (R-UPG-2)."""
        bundle = self.package.bundles.get(name)
        return bool(bundle and bundle.prohibited)

    def skipped_by(self, name: str) -> list[tuple[str, str]]:
        """``(channel, entry)`` pairs whose ``skips`` list ``name``, for R-UPG-1 findings."""
        return [
            (channel.name, e.name)
            for channel in self.channels
            if name in self.skipped[channel.name]
            for e in channel.entries
            if name in e.skips
        ]

    def admitting(self, name: str, version: Version | None) -> list[str]:
        """Every ranked entry that admits the installed CSV, chosen or not."""
        return [e.name for e in self.ranked if admitting_edge(e, name, version)]

    def next(self, name: str, version: Version | None) -> Hop | None:
        """R-UPG-2: the candidate nearest the head for installed ``name`` at ``version``.

        ``None`` when nothing admits it, or when the best candidate is the installed
        bundle itself (its own skipRange contains its version: that is "stay").
        """
        key = (name, version)
        if key not in self._next_cache:
            self._next_cache[key] = self._find_next(name, version)
        return self._next_cache[key]

    def _usable(self, pos: int, name: str) -> bool:
        entry = self.ranked[pos]
        return entry.name == name or not self.prohibited(entry.name)

    def _find_next(self, name: str, version: Version | None) -> Hop | None:
        # R-UPG-2: the lowest ranked position among the entries whose replaces, skips or
        # skipRange admit the CSV; the edge kinds are equal, position alone decides.
        best = len(self.ranked)
        for index in (self._by_replaces, self._by_skips):
            for pos in index.get(name, ()):
                if pos < best and self._usable(pos, name):
                    best = pos
                    break
        if version is not None:
            for pos, rng in self._ranges:
                if pos >= best:
                    break
                if self._usable(pos, name) and rng.contains(version):
                    best = pos
                    break
        if best == len(self.ranked) or self.ranked[best].name == name:
            return None
        target = self.ranked[best]
        via = admitting_edge(target, name, version)
        return Hop(name, target.name, via) if via else None

    def path(self, name: str, version: Version | None) -> list[Hop]:
        """R-UPG-5: the hops from installed ``name`` until no candidate is left.

        Stops before revisiting a bundle (possible only with skipRanges that admit newer
        versions, which would make OLM move back and forth).
        """
        hops: list[Hop] = []
        seen = {name}
        hop = self.next(name, version)
        while hop is not None and hop.target not in seen:
            hops.append(hop)
            seen.add(hop.target)
            hop = self._next_from_bundle(hop.target)
        return hops

    def _next_from_bundle(self, name: str) -> Hop | None:
        """``next`` for a bundle of this catalog, at the catalog's version of it."""
        if name not in self._next_of_entry:
            self._next_of_entry[name] = self._find_next(name, self.version(name))
        return self._next_of_entry[name]

    def contains(self, name: str) -> bool:
        return any(e.name == name for c in self.channels for e in c.entries)

    def first_installable(self) -> str | None:
        """A fresh Subscription without startingCSV gets the best ranked bundle that is not
        prohibited: the head, unless it is deprecated (R-UPG-2)."""
        for entry in self.ranked:
            if not self.prohibited(entry.name):
                return entry.name
        return None


# --- which catalog, package and channels a Subscription sees -------------------------------------


@frozen
class SubscriptionScope:
    """What a Subscription can resolve against (R-UPG-2). ``error`` is OLM's R-UPG-6 message
    when the scope is empty and the catalog is whole; ``absent`` says the same of content
    that is not the whole catalog (R-DOC-8), so it shows nothing about what OLM finds;
    ``catalog`` is ``None`` when no given catalog covers the source."""

    catalog: Catalog | None
    package: Package | None = None
    channels: tuple[Channel, ...] = ()
    error: str | None = None
    absent: str | None = None

    @property
    def graph(self) -> Literal["catalog", "packagemanifest", "none"]:
        if self.catalog is None or self.package is None or not self.channels:
            return "none"
        return self.catalog.graph


def source_ref(sub: Obj) -> str:
    """``namespace/name`` of the Subscription's CatalogSource."""
    sub_spec = spec(sub)
    return f"{sub_spec.get('sourceNamespace') or ''}/{sub_spec.get('source') or ''}"


def ordered_channels(package: Package) -> list[Channel]:
    """Empty ``spec.channel``: every channel, the default first, then by name (R-UPG-2)."""
    names = sorted(package.channels)
    default = package.default_channel
    if default in package.channels:
        names.remove(default)
        names.insert(0, default)
    return [package.channels[n] for n in names]


def subscription_scope(catalogs: Iterable[Catalog], sub: Obj) -> SubscriptionScope:
    """Only the Subscription's own CatalogSource counts (R-UPG-2): catalog content given for
    that ``ref`` if any, else catalog content with ``ref=None`` (it serves every source),
    else the source's PackageManifests."""
    sub_spec = spec(sub)
    ref = source_ref(sub)
    package_name = sub_spec.get("name") or ""
    sub_name = meta(sub).get("name") or ""
    serving = [c for c in catalogs if c.ref == ref or c.ref is None]
    serving.sort(key=lambda c: (c.graph != "catalog", c.ref is None))
    exact = [c for c in serving if c.ref == ref]
    # Content given for exactly this CatalogSource stands for it: content for every source
    # then no longer counts. Where that content is not the whole catalog, the source's own
    # PackageManifests may still know a package it lacks (R-DOC-8).
    if any(c.graph == "catalog" for c in exact):
        serving = exact
    catalog = next((c for c in serving if package_name in c.packages), None)
    if catalog is None:
        if not exact:
            return SubscriptionScope(None)
        namespace, _, source = ref.partition("/")
        whole = next((c for c in exact if c.whole), None)
        if whole is None:
            return SubscriptionScope(
                exact[0], absent=_absent(package_name, None, sub_name, exact[0], ref)
            )
        if not whole.packages:
            error = (
                f"no operators found from catalog {source} in namespace {namespace} "
                f"referenced by subscription {sub_name}"
            )
        else:
            error = (
                f"no operators found in package {package_name} in the catalog referenced "
                f"by subscription {sub_name}"
            )
        return SubscriptionScope(whole, error=error)
    package = catalog.packages[package_name]
    channel_name = sub_spec.get("channel") or ""
    if not channel_name:
        return SubscriptionScope(catalog, package, tuple(ordered_channels(package)))
    channel = package.channels.get(channel_name)
    if channel is None:
        if not catalog.whole:
            return SubscriptionScope(
                catalog, package, absent=_absent(package_name, channel_name, sub_name, catalog, ref)
            )
        return SubscriptionScope(
            catalog,
            package,
            error=(
                f"no operators found in channel {channel_name} of package {package_name} in the "
                f"catalog referenced by subscription {sub_name}"
            ),
        )
    return SubscriptionScope(catalog, package, (channel,))


def _absent(package: str, channel: str | None, sub_name: str, catalog: Catalog, ref: str) -> str:
    """R-DOC-8: what partial content does not hold, said without claiming OLM finds none."""
    what = f"channel {channel} of package {package}" if channel else f"package {package}"
    return (
        f"Subscription {sub_name} asks for {what} from CatalogSource {ref}: it is not in the "
        f"catalog content given ({catalog.origin}), which is not the whole catalog, so "
        "nothing shows whether the CatalogSource serves it. OLM says so itself if it does "
        "not (ResolutionFailed on the Subscription); give the whole catalog to know."
    )


def _what_exists(scope: SubscriptionScope, sub_spec: Obj) -> str | None:
    """R-UPG-6: the packages of the Subscription's catalog, or the channels of its package,
    closest to the name it asks for first, when the catalog lacks that name."""
    if scope.catalog is None:
        return None
    package = str(sub_spec.get("name") or "")
    if scope.package is None:
        return package_suggestion(scope.catalog, package)
    return channel_suggestion(scope.catalog, package, str(sub_spec.get("channel") or ""))


def _starting_csv_error(sub: Obj, graph: UpgradeGraph) -> str | None:
    """R-UPG-6: the startingCSV names no entry of the Subscription's channels."""
    sub_spec = spec(sub)
    starting = sub_spec.get("startingCSV")
    if not starting or graph.contains(starting):
        return None
    return (
        f"no operators found with name {starting} in channel {sub_spec.get('channel') or ''} "
        f"of package {sub_spec.get('name') or ''} in the catalog referenced by subscription "
        f"{meta(sub).get('name') or ''}"
    )


# --- the Subscription's upgrade ----------------------------------------------------------------


def installed_version(csv: Obj) -> Version | None:
    """R-SEM-7: the installed CSV's ``spec.version``; absent means ``0.0.0``."""
    return version_of(spec(csv).get("version"))


def _packagemanifest_upgrade(
    scope: SubscriptionScope,
    sub: Obj,
    installed_csv: Obj | None,
) -> UpgradeInfo:
    """R-UPG-9: only the head and its skipRange are known; entries carry no edges."""
    channel = scope.channels[0]
    head = channel.reported_head
    head_entry = next((e for e in channel.entries if e.name == head), ChannelEntry(head or ""))
    if installed_csv is None:
        starting = spec(sub).get("startingCSV")
        names = {e.name for c in scope.channels for e in c.entries}
        target = (starting if starting in names else None) if starting else head
        return UpgradeInfo("packagemanifest", head, target, (target,) if target else ())
    name = meta(installed_csv).get("name") or ""
    via = admitting_edge(head_entry, name, installed_version(installed_csv))
    if head is None or name == head or via is None:
        return UpgradeInfo("packagemanifest", head)
    return UpgradeInfo("packagemanifest", head, head, (head,), (UpgradeEdge(name, head, via),))


def _catalog_upgrade(sub: Obj, installed_csv: Obj | None, graph: UpgradeGraph) -> UpgradeInfo:
    if graph.errors:
        # R-UPG-1: OLM cannot order the channel, so resolution fails: there is no head and
        # no next bundle, whatever a version ranking would suggest.
        return UpgradeInfo("catalog")
    if installed_csv is None:
        starting = spec(sub).get("startingCSV")
        if starting:
            # startingCSV is taken by name even when another entry skips it (R-UPG-2).
            start = (
                starting if graph.contains(starting) and not graph.prohibited(starting) else None
            )
        else:
            start = graph.first_installable()
        if start is None:
            return UpgradeInfo("catalog", graph.head)
        hops = graph.path(start, graph.version(start))
        return UpgradeInfo(
            "catalog",
            graph.head,
            start,
            (start, *(h.target for h in hops)),
            tuple(h.edge() for h in hops),
        )
    name = meta(installed_csv).get("name") or ""
    hops = graph.path(name, installed_version(installed_csv))
    return UpgradeInfo(
        "catalog",
        graph.head,
        hops[0].target if hops else None,
        tuple(h.target for h in hops),
        tuple(h.edge() for h in hops),
    )


class _Graphs:
    """Upgrade graphs, and opm's checks of each channel, shared by the Subscriptions that see
    the same channels (hundreds of tenants may subscribe to one channel)."""

    def __init__(self) -> None:
        self._graphs: dict[tuple[int, str, tuple[str, ...]], UpgradeGraph] = {}
        self._checks: dict[int, tuple[str | None, list[SkipRangeProblem]]] = {}

    def get(self, scope: SubscriptionScope) -> UpgradeGraph:
        assert scope.catalog is not None and scope.package is not None
        key = (id(scope.catalog), scope.package.name, tuple(c.name for c in scope.channels))
        if key not in self._graphs:
            self._graphs[key] = UpgradeGraph(scope.package, scope.channels)
        return self._graphs[key]

    def opm_checks(self, channel: Channel) -> tuple[str | None, list[SkipRangeProblem]]:
        """R-UPG-7 for one channel: its replaces-chain error and its unparsable skipRanges."""
        key = id(channel)  # the channel lives in a catalog the caller holds
        if key not in self._checks:
            self._checks[key] = (_replaces_chain_error(channel), skip_range_problems(channel))
        return self._checks[key]


def _resolve(
    scope: SubscriptionScope, sub: Obj, installed_csv: Obj | None, graphs: _Graphs
) -> UpgradeInfo:
    if scope.graph == "none":
        return UpgradeInfo()
    if scope.graph == "packagemanifest":
        return _packagemanifest_upgrade(scope, sub, installed_csv)
    return _catalog_upgrade(sub, installed_csv, graphs.get(scope))


def resolve_upgrade(
    catalogs: Iterable[Catalog],
    sub: Obj,
    installed_csv: Obj | None,
) -> UpgradeInfo:
    """R-UPG-2 and R-UPG-5 for one Subscription.

    ``installed_csv`` is the CSV named by ``status.installedCSV`` in the Subscription's
    namespace, or ``None`` when nothing is installed yet: then ``next`` is ``startingCSV``
    (``None`` if it is not in the channel) or the channel head, and ``path`` starts with it.
    """
    return _resolve(subscription_scope(catalogs, sub), sub, installed_csv, _Graphs())


class CSVLookup(Protocol):
    """What :func:`upgrade_hook` needs from the Store."""

    def get(self, kind: str, namespace: str, name: str) -> Obj | None: ...


def upgrade_hook(catalogs: Iterable[Catalog]) -> Callable[[Obj, CSVLookup], UpgradeInfo]:
    """The ``Model(upgrades=...)`` hook: :func:`resolve_upgrade` for each Subscription, its
    installed CSV looked up in the store, graphs shared between calls."""
    catalogs = list(catalogs)
    graphs = _Graphs()

    def hook(sub: Obj, store: CSVLookup) -> UpgradeInfo:
        installed = status(sub).get("installedCSV")
        csv = store.get(CSV, meta(sub).get("namespace") or "", installed) if installed else None
        return _resolve(subscription_scope(catalogs, sub), sub, csv, graphs)

    return hook


def unknowable_reason(upgrade: UpgradeInfo, installed: str | None) -> str:
    """What cannot be known about the upgrade without catalog content; ``""`` if nothing."""
    if upgrade.graph == "none":
        return (
            "No catalog content for this package from the Subscription's CatalogSource: "
            "the next bundle and the upgrade path need the catalog (olmtui --catalog) or "
            "its PackageManifest."
        )
    if upgrade.graph != "packagemanifest":
        return ""
    edges = (
        "a PackageManifest lists each channel's head and the head's skipRange, but not "
        "the entries' replaces/skips edges (R-UPG-9)"
    )
    if installed is not None and upgrade.next is None and installed != upgrade.head:
        return (
            f"The head {upgrade.head} does not admit {installed}; whether another entry "
            f"replaces or skips {installed} cannot be known: {edges}. Load the catalog "
            "(olmtui --catalog) to see the path."
        )
    if installed is None and upgrade.next is not None and upgrade.next != upgrade.head:
        return (
            f"After {upgrade.next} is installed, the hops to the head {upgrade.head} cannot "
            f"be known: {edges}. Load the catalog (olmtui --catalog) to see them."
        )
    return ""


def replaces_rewrite(
    catalogs: Iterable[Catalog], sub: Obj, installed_csv: Obj
) -> tuple[str | None, str | None] | None:
    """R-UPG-4: ``(on-cluster spec.replaces, catalog replaces)`` when the cluster's is set
    and differs.

    OLM overwrites ``spec.replaces`` of an upgrade's CSV with the CSV it actually replaced,
    so the cluster shows the edge it took, not the catalog's. ``None`` when they agree or
    the catalog does not know the bundle.
    """
    return _replaces_rewrite(subscription_scope(catalogs, sub), installed_csv)


def _replaces_rewrite(
    scope: SubscriptionScope, installed_csv: Obj
) -> tuple[str | None, str | None] | None:
    if scope.graph != "catalog":
        return None
    name = meta(installed_csv).get("name") or ""
    entry = next((e for c in scope.channels for e in c.entries if e.name == name), None)
    if entry is None:
        return None
    on_cluster = spec(installed_csv).get("replaces") or None
    catalog = entry.replaces or None
    # A CSV without spec.replaces is a fresh install of a bundle whose own CSV has none (an
    # FBC may still give the entry a replaces edge): nothing was rewritten.
    return None if on_cluster is None or on_cluster == catalog else (on_cluster, catalog)


# --- findings ----------------------------------------------------------------------------------


@dataclass
class _SubjectFindings:
    """Findings about one Subscription, with its identity filled in."""

    sub: Obj
    related: tuple[ObjectRef, ...]
    out: list[Finding] = field(default_factory=list)

    def add(self, severity: Severity, code: str, message: str, rule: str) -> None:
        sub_meta = meta(self.sub)
        self.out.append(
            Finding(
                severity,
                code,
                SUBSCRIPTION,
                sub_meta.get("namespace") or "",
                sub_meta.get("name") or "",
                message,
                rule,
                self.related,
            )
        )


def _catalog_label(catalog: Catalog) -> str:
    return f"CatalogSource {catalog.ref}" if catalog.ref else f"catalog {catalog.origin}"


def _channel_findings(
    f: _SubjectFindings, scope: SubscriptionScope, graph: UpgradeGraph, graphs: _Graphs
) -> None:
    """R-UPG-1 errors of the channels the Subscription uses, then opm's (R-UPG-7)."""
    assert scope.catalog is not None and scope.package is not None
    where = _catalog_label(scope.catalog)
    for channel in scope.channels:
        resolver_errors = graph.errors.get(channel.name, [])
        for error in resolver_errors:
            f.add(
                "error",
                "ChannelGraphError",
                f"OLM's resolver cannot order channel {channel.name} of package "
                f'{scope.package.name} in {where}: "{error}". Resolution fails with this '
                "error (ResolutionFailed / ErrorPreventedResolution) until the catalog is "
                "fixed, so there is no next bundle: OLM installs or upgrades nothing from "
                "this channel. Fix the catalog so the channel has one replaces chain with "
                "a single head, or move the Subscription to a channel OLM can order.",
                "R-UPG-1",
            )
        if edges_unknown(channel):
            continue
        chain_error, range_problems = graphs.opm_checks(channel)
        if chain_error and chain_error.startswith("channel contains one or more stranded"):
            f.add(
                "warning",
                "StrandedBundles",
                f"opm validation rejects channel {channel.name} of package "
                f'{scope.package.name} in {where}: "{chain_error}". The replaces chain '
                "from the head never reaches them; OLM's resolver does not check this, but "
                "the catalog cannot be rebuilt with opm as it is.",
                "R-UPG-7",
            )
        elif chain_error and not resolver_errors:
            f.add(
                "warning",
                "ChannelGraphError",
                f"opm validation rejects channel {channel.name} of package "
                f'{scope.package.name} in {where}: "{chain_error}".',
                "R-UPG-7",
            )
        for p in range_problems:
            f.add(
                "warning",
                "InvalidSkipRange",
                f"Bundle {p.entry} in channel {channel.name} ({where}) has olm.skipRange "
                f"{p.skip_range!r}, which does not parse ({p.error}). OLM ignores it, so it "
                "admits no installed version, and opm validation rejects the catalog.",
                "R-SEM-7",
            )


def _deprecation_findings(f: _SubjectFindings, scope: SubscriptionScope, installed: str) -> None:
    """R-SUB-10: deprecation of the installed bundle's package, channel and bundle."""
    assert scope.package is not None
    package = scope.package
    rule = "R-SUB-10"
    if package.deprecation:
        f.add(
            "warning",
            "PackageDeprecated",
            f"Package {package.name} is deprecated: {package.deprecation}",
            rule,
        )
    channel_name = spec(f.sub).get("channel")
    channel = package.channels.get(channel_name) if channel_name else None
    if channel is not None and channel.deprecation:
        f.add(
            "warning",
            "ChannelDeprecated",
            f"Channel {channel.name} of package {package.name} is deprecated: "
            f"{channel.deprecation}",
            rule,
        )
    bundle = package.bundles.get(installed)
    if bundle is not None and bundle.deprecation:
        f.add(
            "warning",
            "BundleDeprecated",
            f"Installed bundle {installed} is deprecated: {bundle.deprecation}",
            rule,
        )


def _manual_namespaces(subs: Iterable[Obj]) -> set[str]:
    """R-SUB-4: one Manual Subscription makes every InstallPlan of its namespace Manual."""
    return {meta(s).get("namespace") or "" for s in subs if approval(s) == "Manual"}


def _stall_note(namespace: str, groups: int) -> str:
    """R-SUB-9: with 0 or 2+ OperatorGroups OLM resolves nothing in the namespace."""
    have = "no OperatorGroup" if groups == 0 else f"{groups} OperatorGroups"
    return (
        f"But {namespace} has {have}, so OLM resolves nothing there and no upgrade happens "
        "until it has exactly one (R-SUB-9, see SubscriptionStalled)."
    )


def _upgrade_state_findings(
    f: _SubjectFindings,
    graph: UpgradeGraph,
    upgrade: UpgradeInfo,
    installed: str,
    version: Version | None,
    manual: bool,
    stalled: str | None = None,
) -> None:
    if upgrade.next is not None:
        hops = " -> ".join((installed, *upgrade.path))
        end = upgrade.path[-1]
        picks = "would pick" if stalled else "picks"
        message = (
            f"{installed} is behind: OLM {picks} {upgrade.next} next (admitted by its "
            f"{upgrade.edges[0].via}), {len(upgrade.path)} hop(s) in all: {hops}."
        )
        if upgrade.head and end != upgrade.head:
            message += (
                f" The path stops at {end}: nothing admits it, so the head "
                f"{upgrade.head} is not reached."
            )
        if stalled:
            message += " " + stalled
        elif manual:
            message += (
                " Approval is Manual in this namespace, so every hop waits for its "
                "InstallPlan to be approved."
            )
        f.add("info", "UpgradeAvailable", message, "R-UPG-5")
        return
    head = upgrade.head
    # R-UPG-1: a channel OLM cannot order has no head and no next (ChannelGraphError says so).
    if graph.errors or head is None or installed == head:
        return
    admitting = graph.admitting(installed, version)
    if admitting:
        if all(graph.prohibited(n) or n == installed for n in admitting):
            why = (
                f"the only entries that admit it ({', '.join(admitting)}) are deprecated "
                "bundles (olm.deprecated), which OLM never chooses"
            )
        else:
            return
    elif graph.contains(installed):
        why = "no entry replaces it, lists it in skips, or has a skipRange containing its version"
    else:
        why = (
            "it is not in the channel and no entry replaces it, lists it in skips, or has a "
            "skipRange containing its version"
        )
    f.add(
        "warning",
        "NoUpgradeEdge",
        f"OLM will never upgrade {installed} from channel(s) "
        f"{', '.join(c.name for c in graph.channels)}: {why}. Move the Subscription to a "
        "channel with an edge from this version, or reinstall the operator.",
        "R-UPG-2",
    )


def upgrade_findings(
    catalogs: Iterable[Catalog],
    subs: Iterable[Obj],
    csvs_by_ns: Mapping[str, Mapping[str, Obj]],
    groups_by_ns: Mapping[str, int] | None = None,
) -> list[Finding]:
    """Upgrade facts and problems for every Subscription, as findings.

    ``csvs_by_ns`` maps namespace -> CSV name -> CSV object (non-copied CSVs). Catalog
    problems are reported on the Subscriptions whose channels they affect. ``groups_by_ns``
    counts the OperatorGroups of each namespace, when known: where it is not one, the
    upgrade a finding describes does not happen (R-SUB-9).
    """
    catalogs = list(catalogs)
    subs = list(subs)
    manual = _manual_namespaces(subs)
    graphs = _Graphs()
    findings: list[Finding] = []
    for sub in subs:
        sub_meta, sub_spec = meta(sub), spec(sub)
        namespace = sub_meta.get("namespace") or ""
        scope = subscription_scope(catalogs, sub)
        source_ns, _, source = source_ref(sub).partition("/")
        f = _SubjectFindings(sub, (ObjectRef(CATALOG_SOURCE, source_ns, source),))
        # R-UPG-6: what the catalog does hold, close matches first, when it lacks the name
        exists = _what_exists(scope, sub_spec)
        if scope.error:
            f.add(
                "error",
                "NoOperatorsFound",
                f"{scope.error}. OLM reports this as ResolutionFailed and installs nothing."
                + (f" {exists}." if exists else ""),
                "R-UPG-6",
            )
        elif scope.absent:
            f.add(
                "info",
                "NotInCatalogContent",
                scope.absent + (f" {exists}." if exists else ""),
                "R-DOC-8",
            )
        installed_name = str(status(sub).get("installedCSV") or "")
        csv = (csvs_by_ns.get(namespace) or {}).get(installed_name) if installed_name else None
        upgrade = _resolve(scope, sub, csv, graphs)
        reason = unknowable_reason(upgrade, installed_name if csv is not None else None)
        if upgrade.graph == "packagemanifest" and reason:
            f.add("info", "UpgradePathUnknown", reason, "R-UPG-9")
        if upgrade.graph != "catalog":
            findings.extend(f.out)
            continue
        graph = graphs.get(scope)
        _channel_findings(f, scope, graph, graphs)
        if csv is None:
            starting = sub_spec.get("startingCSV")
            start_error = _starting_csv_error(sub, graph)
            assert scope.catalog is not None
            if start_error and not scope.catalog.whole:
                # R-DOC-8: partial content does not show the bundle is missing from the source.
                f.add(
                    "info",
                    "NotInCatalogContent",
                    f"startingCSV {starting} is not in the Subscription's channel(s) in the "
                    f"catalog content given ({scope.catalog.origin}), which is not the whole "
                    "catalog, so nothing shows whether the CatalogSource serves it.",
                    "R-DOC-8",
                )
            elif start_error:
                f.add(
                    "error",
                    "NoOperatorsFound",
                    f"{start_error}. OLM reports this as ResolutionFailed.",
                    "R-UPG-6",
                )
            elif starting:
                _skipped_finding(f, graph, starting, "startingCSV")
            findings.extend(f.out)
            continue
        version = installed_version(csv)
        _skipped_finding(f, graph, installed_name, "installed CSV")
        groups = None if groups_by_ns is None else groups_by_ns.get(namespace, 0)
        stalled = _stall_note(namespace, groups) if groups is not None and groups != 1 else None
        _upgrade_state_findings(
            f, graph, upgrade, installed_name, version, namespace in manual, stalled
        )
        _deprecation_findings(f, scope, installed_name)
        rewrite = _replaces_rewrite(scope, csv)
        if rewrite is not None:
            on_cluster, in_catalog = rewrite
            f.add(
                "info",
                "ReplacesRewritten",
                f"On the cluster {installed_name} has spec.replaces "
                f"{on_cluster}, the catalog says {in_catalog or '(none)'}: OLM overwrites "
                "spec.replaces with the CSV an upgrade actually replaced, so the cluster "
                "shows the edge it took, not the catalog graph (the bundle's own CSV may "
                "also disagree with the catalog's channel entry).",
                "R-UPG-4",
            )
        findings.extend(f.out)
    findings.sort(key=lambda x: x.sort_key)
    return findings


def _skipped_finding(f: _SubjectFindings, graph: UpgradeGraph, name: str, what: str) -> None:
    """R-UPG-1: a skipped bundle is outside the channel order and never chosen as a hop."""
    by = graph.skipped_by(name)
    if not by:
        return
    listed = ", ".join(f"{entry} (channel {channel})" for channel, entry in by)
    f.add(
        "info",
        "SkippedBundleInstalled",
        f"The {what} {name} is listed in skips of {listed}: OLM leaves it out of the channel "
        "order, so it is never chosen as an upgrade target; it is left through those "
        "entries' skips edges.",
        "R-UPG-1",
    )
