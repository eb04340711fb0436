"""The answers of the MCP server's tools (``tools.py``), computed from one built Session.

Each answer is the JSON the command line prints on the same input (report format 1: the
``check`` report, ``explain``'s ``resolution[]`` entry, ``graph --format json``, ``whatif
--output json``) or a slice of it, inside ``{"format": 1, "source": ...}``: ``source`` is the
report's, so every answer says whether the input is complete (a live sync still running is
not). The report is built once per state of the cache (a snapshot: once) and its lists are
paged (``paging.py``).

Arguments are checked here, one by one: a bad one is a :class:`ToolInputError` (one line,
a tool error the client can correct), never an exception out of the server. Nothing here
writes: ``whatif`` tries its changes on the session's own state and puts it back, as
``olmtui whatif`` does (the MCP session is shown nowhere).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from olmtui.errors import UsageError
from olmtui.kinds import (
    CATALOG_SOURCE,
    CLUSTER_CATALOG,
    CLUSTER_EXTENSION,
    CSV,
    INSTALL_PLAN,
    OPERATOR_GROUP,
    SUBSCRIPTION,
)
from olmtui.mcp.paging import CursorError, Page, page
from olmtui.mcp.tools import (
    BY_NAME,
    DIFF_LISTS,
    FLEET_CONNECT_TIMEOUT,
    FLEET_DEADLINE,
    MAX_FLEET_DEADLINE,
    MAX_LIMIT,
    MAX_TARGETS,
    PAGE_ITEMS,
    SEVERITIES,
)
from olmtui.model.diagnosis.changes import (
    SHORT_KINDS,
    ChangeError,
    parse_assignment,
    parse_ref,
    ref_of,
)
from olmtui.model.records.diagnosis import Change
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.channel_graph import channel_graph
from olmtui.pipeline.compare import compare_sessions
from olmtui.pipeline.diff_sides import Side, read_side, recording_readers, source_of
from olmtui.pipeline.fleet import FleetSettings
from olmtui.pipeline.fleet_runner import run_fleet
from olmtui.pipeline.fleet_targets import listed_targets
from olmtui.pipeline.session import Session
from olmtui.report.diff_report import diff_json
from olmtui.report.fleet_json import fleet_json
from olmtui.report.graph_json import graph_json
from olmtui.report.json_report import (
    FORMAT,
    Report,
    dumps,
    resolution_json,
    without_surrogates,
)
from olmtui.report.whatif_report import whatif_json
from olmtui.store import KINDS

Json = dict[str, Any]
#: A live session's report is built again after this many seconds even when no object
#: moved: ages (a CSV pending for N minutes) are measured against the clock.
LIVE_REPORT_SECONDS = 10.0
#: Kubernetes' namespace names (RFC 1123 labels).
_NAMESPACE = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")
_RULE = re.compile(r"R-[A-Z0-9]+(-[A-Z0-9]+)+")
#: The report list that holds an object of each kind, and how its entries name it.
_ENTRY_LISTS: Mapping[str, str] = {
    OPERATOR_GROUP: "operatorGroups",
    CSV: "csvs",
    SUBSCRIPTION: "subscriptions",
    INSTALL_PLAN: "installPlans",
    CATALOG_SOURCE: "catalogSources",
    CLUSTER_EXTENSION: "clusterExtensions",
    CLUSTER_CATALOG: "clusterCatalogs",
}
_CLUSTER_SCOPED = frozenset({CLUSTER_EXTENSION, CLUSTER_CATALOG, "Namespace"})


class ToolInputError(Exception):
    """An argument the client can correct: one line, returned as a tool error."""


def plain(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings written as its escape (text a JSON
    input may hold and no UTF-8 encoder takes; ``without_surrogates``)."""
    if isinstance(value, str):
        return without_surrogates(value)
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


class Answers:
    """The tools' answers over ``session``; ``live``: its cache follows a cluster, so the
    report is rebuilt when an object moved (and every ``LIVE_REPORT_SECONDS``)."""

    def __init__(
        self,
        session: Session,
        *,
        live: bool,
        clock: Callable[[], float] = time.monotonic,
        catalogs: Sequence[str] = (),
        global_namespace: str | None = None,
    ) -> None:
        self._session = session
        self._live = live
        self._clock = clock
        #: What other inputs are read with (``diff``, ``fleet``): the server's own flags.
        self._catalogs = tuple(catalogs)
        self._global_namespace = global_namespace
        #: The last ``diff`` and ``fleet`` answers, by their arguments: their pages are
        #: read from these (a cursor of another answer is refused, ``paging.py``).
        self._diffs = _Kept()
        self._fleets = _Kept()
        self._moves = 0
        #: While the answers try changes on the cache themselves (a remedy's proof, a
        #: whatif), put back before they return: those changes are no move.
        self._trying = False
        self._kept: tuple[object, float, Report] | None = None
        #: Moves on every report built: a page's cursor is valid for the report it came from.
        self._generation = 0
        session.store.subscribe(self._moved)

    def _moved(self, changes: Sequence[object]) -> None:
        if not self._trying:
            self._moves += 1

    @contextlib.contextmanager
    def _trials(self) -> Iterator[None]:
        """A block that changes the cache and puts it back (synchronously: no watch event
        lands meanwhile)."""
        self._trying = True
        try:
            yield
        finally:
            self._trying = False

    # -- the report ------------------------------------------------------------------------

    def _stamp(self) -> object:
        session = self._session
        return (self._moves, id(session.catalogs()), session.input_partial())

    def report(self) -> Report:
        """The ``check`` report of the cache now (remedies proven on the session's own
        state, as ``check`` proves them), kept while nothing moved."""
        stamp, now = self._stamp(), self._clock()
        kept = self._kept
        # a live report also ages: CSV ages are measured against the wall clock
        timely = kept is not None and (not self._live or now - kept[1] < LIVE_REPORT_SECONDS)
        if kept is not None and kept[0] == stamp and timely:
            return kept[2]
        with self._trials():
            report: Report = plain(self._session.analysis.report(verify_remedies=True))
        self._kept = (stamp, now, report)
        self._generation += 1
        return report

    def _answer(self, report: Report, **fields: Any) -> Json:
        return {"format": FORMAT, "source": report["source"], **fields}

    # -- the tools -------------------------------------------------------------------------

    def call(self, name: str, arguments: Mapping[str, Any] | None) -> Json:
        """The answer of tool ``name``; :class:`ToolInputError` for a bad argument or an
        input the question cannot be asked of (a namespace not read, a package not in the
        catalog content)."""
        spec = BY_NAME.get(name)
        if spec is None:
            raise ToolInputError(f"no tool {name!r}: the tools are {', '.join(sorted(BY_NAME))}")
        args = dict(arguments or {})
        allowed = set(spec.input_schema["properties"])
        unknown = sorted(set(args) - allowed)
        if unknown:
            raise ToolInputError(
                f"{name}: unknown argument {unknown[0]!r} (it takes {', '.join(sorted(allowed))})"
            )
        handler: Callable[[dict[str, Any]], Json] = getattr(self, f"_{name}")
        try:
            return handler(args)
        except (UsageError, ChangeError, CursorError) as exc:
            raise ToolInputError(f"{name}: {exc}") from None

    def _report_summary(self, args: dict[str, Any]) -> Json:
        report = self.report()
        first = self._page("incidents", report["incidents"], {}, None, PAGE_ITEMS)
        return self._answer(
            report,
            summary=report["summary"],
            incidents=first.items,
            nextCursor=first.next_cursor,
        )

    def _incidents(self, args: dict[str, Any]) -> Json:
        report = self.report()
        filters = self._filters(args, ("namespace", "severity", "kind", "rule"))
        rules = {_key(f): f.get("rule") for f in report["findings"]}
        chosen = [i for i in report["incidents"] if _incident_matches(i, filters, rules)]
        found = self._page("incidents", chosen, filters, args.get("cursor"), _limit(args))
        return self._answer(
            report, total=len(chosen), incidents=found.items, nextCursor=found.next_cursor
        )

    def _findings(self, args: dict[str, Any]) -> Json:
        report = self.report()
        filters = self._filters(args, ("namespace", "severity", "kind", "rule", "code", "incident"))
        chosen = [f for f in report["findings"] if _finding_matches(f, filters)]
        found = self._page("findings", chosen, filters, args.get("cursor"), _limit(args))
        return self._answer(
            report, total=len(chosen), findings=found.items, nextCursor=found.next_cursor
        )

    def _object(self, args: dict[str, Any]) -> Json:
        kind = self._kind(_required(args, "kind"))
        name = _required(args, "name")
        namespace = _text(args, "namespace") or ""
        if kind in _CLUSTER_SCOPED and namespace:
            raise ToolInputError(f"object: {kind} is cluster-scoped: give no namespace")
        if kind not in _CLUSTER_SCOPED:
            if not namespace:
                raise ToolInputError(f"object: {kind} is namespaced: give its namespace")
            self._namespace(namespace)
        report = self.report()
        target = ObjectRef(kind, namespace, name)
        present = self._session.store.get(kind, namespace, name) is not None
        findings = [f for f in report["findings"] if _names(f, target)]
        if not present and not findings:
            where = f"{namespace}/{name}" if namespace else name
            raise ToolInputError(f"object: no {kind} {where} in the input")
        ids = {f["incident"] for f in findings}
        incidents = [
            i
            for i in report["incidents"]
            if i["id"] in ids or any(_names(a, target) for a in i["affected"])
        ]
        evidence: list[Any] = []
        for finding in findings:
            evidence.extend(e for e in finding.get("evidence") or () if e not in evidence)
        listed = _ENTRY_LISTS.get(kind)
        entry = (
            next((e for e in report.get(listed, ()) if _names(e, target)), None) if listed else None
        )
        related = [
            {
                "relation": how,
                "kind": ref.kind,
                "namespace": ref.namespace or None,
                "name": ref.name,
            }
            for how, ref in self._session.analysis.related(target)
        ]
        return self._answer(
            report,
            object={"kind": kind, "namespace": namespace or None, "name": name, "present": present},
            entry=entry,
            findings=findings,
            incidents=incidents,
            evidence=evidence,
            related=plain(related),
        )

    def _explain(self, args: dict[str, Any]) -> Json:
        namespace = _required(args, "namespace")
        self._namespace(namespace)
        subscription = _text(args, "subscription")
        store = self._session.store
        if subscription and store.get(SUBSCRIPTION, namespace, subscription) is None:
            raise ToolInputError(
                f"explain: no Subscription {namespace}/{subscription} in the input"
            )
        entries = self._session.analysis.resolutions([namespace])
        if not entries:
            raise ToolInputError(
                f"explain: namespace {namespace} holds no Subscription: nothing to resolve"
            )
        return self._answer(self.report(), resolution=plain(resolution_json(entries[0])))

    def _upgrade_graph(self, args: dict[str, Any]) -> Json:
        package = _required(args, "package")
        channel = _text(args, "channel")
        drawn = channel_graph(self._session, package, channel)
        return self._answer(self.report(), graph=plain(graph_json(drawn.view, drawn.catalog)))

    def _whatif(self, args: dict[str, Any]) -> Json:
        actions = args.get("actions")
        if not isinstance(actions, list) or not actions or len(actions) > 20:
            raise ToolInputError("whatif: `actions` is a list of 1 to 20 changes")
        changes = [_change(n, a) for n, a in enumerate(actions, 1)]
        report = self.report()
        # the session is shown nowhere: tried on in place and put back, as ``olmtui whatif``
        with self._trials():
            answer = self._session.analysis.whatif(changes, in_place=True)
        return self._answer(report, whatif=plain(whatif_json(answer)))

    def _diff(self, args: dict[str, Any]) -> Json:
        before_text = _required(args, "before")
        after_text = _text(args, "after")
        # this server's own input moves when it is live: its state is part of the question
        asked = (before_text, after_text, None if after_text else self._stamp())
        document = self._diffs.get(
            asked, args, lambda: self._diff_document(before_text, after_text)
        )
        wanted = _text(args, "list")
        limit = _limit(args)
        if wanted is not None:
            if wanted not in DIFF_LISTS:
                raise ToolInputError(f"`list` is one of {', '.join(DIFF_LISTS)}")
            items = _at(document, wanted)
            found = self._page_of("diff", wanted, items, asked, args.get("cursor"), limit)
            return {
                "format": FORMAT,
                "from": document["from"],
                "to": document["to"],
                "list": wanted,
                "total": len(items),
                "items": found.items,
                "nextCursor": found.next_cursor,
            }
        if args.get("cursor") is not None:
            raise ToolInputError("a cursor reads on one list: give `list` with it")
        first = json.loads(json.dumps(document))
        pages: Json = {}
        for name in DIFF_LISTS:
            items = _at(document, name)
            found = self._page_of("diff", name, items, asked, None, limit)
            _put(first, name, found.items)
            pages[name] = {"total": len(items), "nextCursor": found.next_cursor}
        return {**first, "pages": pages}

    def _diff_document(self, before_text: str, after_text: str | None) -> Json:
        """``olmtui diff BEFORE AFTER --output json``'s document; without AFTER, this
        server's own input as it is now (compared on the cache as it stands)."""
        readers = recording_readers()

        def read(text: str) -> Side:
            return read_side(text, self._catalogs, self._global_namespace, *readers)

        before = read(before_text)
        after = read(after_text) if after_text else Side(self._session, "this server's input")
        with self._trials():
            diff, old, new = compare_sessions(before.session, after.session)
        document: Json = plain(
            diff_json(
                diff,
                source_of(before, dict(old.report["source"])),
                source_of(after, dict(new.report["source"])),
            )
        )
        return document

    def _fleet(self, args: dict[str, Any]) -> Json:
        lines = args.get("targets")
        if (
            not isinstance(lines, list)
            or not 1 <= len(lines) <= MAX_TARGETS
            or not all(isinstance(line, str) and 0 < len(line) <= 4096 for line in lines)
        ):
            raise ToolInputError(f"`targets` is a list of 1 to {MAX_TARGETS} target strings")
        connect = _seconds(args, "connectTimeout", FLEET_CONNECT_TIMEOUT, 60.0)
        deadline = _seconds(args, "deadline", FLEET_DEADLINE, MAX_FLEET_DEADLINE)
        asked = (tuple(lines), connect, deadline)
        document = self._fleets.get(
            asked, args, lambda: self._fleet_document(lines, connect, deadline)
        )
        targets = document["targets"]
        found = self._page_of("fleet", "targets", targets, asked, args.get("cursor"), _limit(args))
        answer: Json = {"format": FORMAT, "total": len(targets), "targets": found.items}
        if args.get("cursor") is None:
            answer["rollup"] = document["rollup"]
        answer["nextCursor"] = found.next_cursor
        return answer

    def _fleet_document(self, lines: Sequence[str], connect: float, deadline: float) -> Json:
        """``olmtui check --fleet TARGETS --output json``'s document, read with the
        server's catalog flags; the call ends by ``deadline``."""
        settings = FleetSettings(
            catalog_specs=self._catalogs,
            global_namespace=self._global_namespace,
            next_catalogs=tuple(self._session.next_catalogs),
            connect_timeout=connect,
        )
        results = run_fleet(listed_targets(lines), settings, deadline=deadline)
        document: Json = plain(json.loads(dumps(fleet_json(results))))
        return document

    def _page_of(
        self,
        tool: str,
        name: str,
        items: Sequence[Any],
        asked: object,
        cursor: Any,
        limit: int,
    ) -> Page:
        if cursor is not None and not isinstance(cursor, str):
            raise ToolInputError("cursor is the `nextCursor` string of the previous page")
        return page(items, limit, cursor, (tool, name, asked))

    # -- arguments -------------------------------------------------------------------------

    def _filters(self, args: dict[str, Any], names: Iterable[str]) -> dict[str, str]:
        filters: dict[str, str] = {}
        for name in names:
            value = _text(args, name)
            if value is None:
                continue
            if name == "namespace":
                self._namespace(value)
            elif name == "severity" and value not in SEVERITIES:
                raise ToolInputError(f"severity {value!r} is not one of {', '.join(SEVERITIES)}")
            elif name == "kind":
                value = self._kind(value)
            elif name == "rule" and not _RULE.fullmatch(value):
                raise ToolInputError(f"rule {value!r} is not a rule id (R-SUB-5)")
            filters[name] = value
        return filters

    def _namespace(self, namespace: str) -> None:
        """``ToolInputError`` for a name no namespace can have, or one the input did not
        read (``--namespace`` limited it)."""
        if not _NAMESPACE.fullmatch(namespace):
            raise ToolInputError(f"{namespace!r} is not a namespace name")
        read = self._session.store.read_namespaces
        if read is not None and namespace not in read:
            raise ToolInputError(
                f"namespace {namespace} was not read (the server reads only "
                f"{', '.join(sorted(read))}; see --namespace)"
            )

    def _kind(self, name: str) -> str:
        """The kind ``name`` stands for: a kind the cache keeps (any case, plural too) or
        ``whatif``'s short name."""
        lowered = name.lower()
        if lowered in SHORT_KINDS:
            return SHORT_KINDS[lowered]
        for kind in KINDS:
            if lowered in (kind.lower(), kind.lower() + "s"):
                return kind
        raise ToolInputError(
            f"unknown kind {name!r}: use a kind (Subscription, ClusterServiceVersion...) or "
            f"one of {', '.join(sorted(SHORT_KINDS))}"
        )

    def _page(
        self,
        tool: str,
        items: Sequence[Any],
        filters: Mapping[str, str],
        cursor: Any,
        limit: int,
    ) -> Page:
        if cursor is not None and not isinstance(cursor, str):
            raise ToolInputError("cursor is the `nextCursor` string of the previous page")
        return page(items, limit, cursor, (tool, sorted(filters.items()), self._generation))


def _required(args: Mapping[str, Any], name: str) -> str:
    value = _text(args, name)
    if value is None:
        raise ToolInputError(f"`{name}` is required")
    return value


def _text(args: Mapping[str, Any], name: str) -> str | None:
    value = args.get(name)
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 253:
        raise ToolInputError(f"`{name}` is a string of at most 253 characters")
    return value


def _limit(args: Mapping[str, Any]) -> int:
    value = args.get("limit", PAGE_ITEMS)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LIMIT:
        raise ToolInputError(f"`limit` is a whole number from 1 to {MAX_LIMIT}")
    return value


def _names(entry: Mapping[str, Any], target: ObjectRef) -> bool:
    """Whether a report entry (a finding, an affected object, a list entry) is ``target``;
    entries of lists that hold one kind carry no ``kind``."""
    kind = entry.get("kind")
    return (
        (kind is None or kind == target.kind)
        and (entry.get("namespace") or "") == target.namespace
        and entry.get("name") == target.name
    )


def _key(finding: Mapping[str, Any]) -> tuple[Any, ...]:
    return (finding["code"], finding["kind"], finding["namespace"], finding["name"])


def _finding_matches(finding: Mapping[str, Any], filters: Mapping[str, str]) -> bool:
    fields = {
        "namespace": finding.get("namespace"),
        "severity": finding.get("severity"),
        "kind": finding.get("kind"),
        "rule": finding.get("rule"),
        "code": finding.get("code"),
        "incident": finding.get("incident"),
    }
    return all(fields[name] == value for name, value in filters.items())


def _incident_matches(
    incident: Mapping[str, Any],
    filters: Mapping[str, str],
    rules: Mapping[tuple[Any, ...], Any],
) -> bool:
    root = incident["root"]
    objects = [root, *incident["affected"]]
    checks: dict[str, Callable[[str], bool]] = {
        "severity": lambda v: incident["severity"] == v,
        "namespace": lambda v: any(o.get("namespace") == v for o in objects),
        "kind": lambda v: any(o.get("kind") == v for o in objects),
        "rule": lambda v: rules.get(_key(root)) == v,
    }
    return all(checks[name](value) for name, value in filters.items())


def _change(number: int, action: Any) -> Change:
    """One ``whatif`` action as a :class:`Change` (``ToolInputError`` when it cannot be read)."""
    where = f"whatif: action {number}"
    if not isinstance(action, dict):
        raise ToolInputError(f"{where} is not an object")
    verb = action.get("action")
    try:
        if verb == "create":
            body = action.get("body")
            if not isinstance(body, dict):
                raise ToolInputError(f"{where}: create takes the object as `body`")
            return Change("create", ref_of(body), body=body)
        target = parse_ref(_required(action, "object"))
        if verb == "delete":
            return Change("delete", target)
        if verb == "approve":
            if target.kind != INSTALL_PLAN:
                raise ToolInputError(f"{where}: approve takes an InstallPlan, not a {target.kind}")
            return Change("approve", target)
        if verb == "patch":
            field, value = parse_assignment(_required(action, "set"))
            return Change("patch", target, field=field, value=value)
    except ChangeError as exc:
        raise ToolInputError(f"{where}: {exc}") from None
    raise ToolInputError(f"{where}: `action` is delete, approve, patch or create")


class _Kept:
    """The last answer of a tool whose answer is costly (``diff``, ``fleet``), by the
    arguments that asked it: a first page (no cursor) is worked out again, the later pages
    are read from what the first was drawn from."""

    def __init__(self) -> None:
        self._asked: object = None
        self._document: Json | None = None

    def get(self, asked: object, args: Mapping[str, Any], work: Callable[[], Json]) -> Json:
        if args.get("cursor") is not None:
            if self._document is None or self._asked != asked:
                raise CursorError(
                    "the cursor belongs to another answer (or the server forgot it): read "
                    "again from the first page"
                )
            return self._document
        self._document = work()
        self._asked = asked
        return self._document


def _at(document: Mapping[str, Any], dotted: str) -> list[Any]:
    """The list ``dotted`` (``findings.new``) of a diff document."""
    value: Any = document
    for part in dotted.split("."):
        value = value[part]
    return list(value)


def _put(document: dict[str, Any], dotted: str, items: list[Any]) -> None:
    *parents, last = dotted.split(".")
    holder = document
    for part in parents:
        holder = holder[part]
    holder[last] = items


def _seconds(args: Mapping[str, Any], name: str, default: float, most: float) -> float:
    value = args.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= most:
        raise ToolInputError(f"`{name}` is a number of seconds above 0, at most {most:g}")
    return float(value)
