"""One line of an OLM pod's log, parsed: its time, level, and the objects it names (R-EVD-10).

``oc adm inspect`` asks for logs with timestamps, so each line of a must-gather's
``current.log`` opens with the kubelet's RFC 3339 time (``2026-11-28T11:22:33.123456789Z``)
before what the container wrote. OLM writes three formats:

- logrus text (``olm-operator``, ``catalog-operator``): ``time="..." level=error msg="..."
  csv=etcd.v0.9.4 namespace=operators``, and ``catalogsource.name=...`` with
  ``catalogsource.namespace=...``;
- klog (``packageserver``, client-go's own lines, ``operator-controller``/``catalogd`` since
  they log with klog's text logger): ``E1128 11:22:33.123456  1 file.go:12] "msg"
  ClusterExtension="argocd" namespace="" name="argocd"`` (no year: its time is not read);
- JSON lines (controller-runtime's zap): ``{"level":"error","ts":"...","msg":"...",
  "Subscription":{"name":"x","namespace":"y"}}``.

A line is cluster text: nothing here trusts it. What cannot be read is kept as text, with no
time or level; a line longer than :data:`LINE_LIMIT` is cut.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

from olmtui.store import LogLine

#: A line longer than this is cut (a dumped object can be megabytes on one line).
LINE_LIMIT = 2000
#: The kubelet's timestamp that ``--timestamps`` puts before each line.
_KUBELET_TIME = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) ")
_KLOG = re.compile(r"([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^\]\s]+\] ")
#: ``key=value`` and ``key="value with \"escapes\""`` pairs (logrus and klog's structured
#: pairs); a klog value may be a JSON object (``object={"name":"x","namespace":"y"}``).
_PAIR = re.compile(r'([A-Za-z_][\w.\-]*)=("(?:[^"\\]|\\.)*"|\{[^{}]*\}|[^\s"]+)')
#: ``namespace/name`` written anywhere in the line (a message, a key, a value).
_SLASHED = re.compile(
    r"(?<![\w./:-])([a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)/([a-z0-9](?:[-.a-z0-9]{0,251}[a-z0-9])?)(?![\w/:-])"
)

_LEVELS = {
    "i": "info",
    "info": "info",
    "w": "warning",
    "warn": "warning",
    "warning": "warning",
    "e": "error",
    "error": "error",
    "f": "error",
    "fatal": "error",
    "panic": "error",
    "dpanic": "error",
    "debug": "debug",
    "trace": "debug",
}
#: Keys whose value names an OLM object (case-insensitive; ``x.name`` too, paired with
#: ``x.namespace``).
_NAME_KEYS = frozenset(
    {
        "csv",
        "sub",
        "subscription",
        "ip",
        "installplan",
        "plan",
        "catsrc",
        "catalogsource",
        "catalog",
        "source",
        "og",
        "opgroup",
        "operatorgroup",
        "name",
        "clusterextension",
        "clustercatalog",
        "operator",
        "object",
    }
)
_NAMESPACE_KEYS = frozenset({"namespace", "ns"})


def _level(text: str) -> str:
    return _LEVELS.get(text.strip().lower(), "")


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        if "\\" not in value:
            return value[1:-1]  # nothing escaped: the common case, no decoder
        try:
            loaded = json.loads(value)
        except ValueError:
            return value[1:-1]
        return loaded if isinstance(loaded, str) else value[1:-1]
    return value


def _json_time(value: Any) -> str:
    """A zap ``ts``: RFC 3339 text, or seconds since the epoch (a float)."""
    if isinstance(value, str):
        return value if _KUBELET_TIME.match(value + " ") else ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            moment = dt.datetime.fromtimestamp(float(value), dt.UTC)
        except (OverflowError, OSError, ValueError):
            return ""
        return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return ""


def _named(value: Any, namespace: str, into: set[tuple[str, str]]) -> None:
    """Add what a name field holds: ``name``, ``namespace/name`` or ``{"name","namespace"}``."""
    if isinstance(value, dict):
        name, own = value.get("name"), value.get("namespace")
        if isinstance(name, str) and name:
            into.add((own if isinstance(own, str) else namespace, name))
        return
    if not isinstance(value, str) or not value or len(value) > 253 or " " in value:
        return
    if value.count("/") == 1:
        ns, name = value.split("/")
        if ns and name:
            into.add((ns, name))
        return
    into.add((namespace, value))


def _pairs_mentions(pairs: dict[str, Any], into: set[tuple[str, str]]) -> None:
    """The objects key/value pairs name: ``csv=x namespace=y`` is ``y/x``;
    ``catalogsource.name=x catalogsource.namespace=y`` is ``y/x``."""
    lowered = {k.lower(): v for k, v in pairs.items()}
    namespace = next(
        (v for k, v in lowered.items() if k in _NAMESPACE_KEYS and isinstance(v, str)), ""
    )
    for key, value in lowered.items():
        if key.endswith(".name"):
            own = lowered.get(key.removesuffix(".name") + ".namespace")
            _named(value, own if isinstance(own, str) else namespace, into)
        elif key in _NAME_KEYS:
            if key == "object" and isinstance(value, str):
                value = _decoded(value)
            _named(value, namespace, into)


def _decoded(value: str) -> Any:
    if value.startswith("{"):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _json_line(payload: str) -> tuple[str, str, dict[str, Any]] | None:
    """A JSON line's time, level and fields (``None``: not a JSON object)."""
    try:
        loaded = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not isinstance(loaded, dict):
        return None
    level = loaded.get("level")
    return (
        _json_time(loaded.get("ts", loaded.get("time"))),
        _level(level) if isinstance(level, str) else "",
        loaded,
    )


def parse_log_line(pod: str, container: str, raw: str) -> LogLine:
    """One line as the cache keeps it (R-EVD-10): its time (the kubelet's, else the line's
    own RFC 3339 one), level, text (without the kubelet's time, cut at ``LINE_LIMIT``) and
    the ``(namespace, name)`` pairs it names."""
    text = raw.rstrip("\r\n")[:LINE_LIMIT]
    time = ""
    stamped = _KUBELET_TIME.match(text)
    if stamped:
        time, text = stamped.group(1), text[stamped.end() :]
    level = ""
    mentions: set[tuple[str, str]] = set()
    pairs: dict[str, Any] = {}
    if text.startswith("{"):
        parsed = _json_line(text)
        if parsed is not None:
            own_time, level, pairs = parsed
            time = time or own_time
    if not pairs:
        klog = _KLOG.match(text)
        if klog:
            level = _level(klog.group(1))
        for match in _PAIR.finditer(text):
            key, value = match.group(1), match.group(2)
            pairs[key] = _decoded(value) if value.startswith("{") else _unquoted(value)
        if not klog:
            level = _level(str(pairs.get("level", "")))
            own = pairs.get("time")
            if not time and isinstance(own, str) and _KUBELET_TIME.match(own + " "):
                time = own
    _pairs_mentions(pairs, mentions)
    if "/" in text:
        mentions.update(_SLASHED.findall(text))
    return LogLine(pod, container, time, level, text, frozenset(mentions))
