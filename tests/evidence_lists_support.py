"""Shared by the tests of a must-gather's Pod, Event and Job Lists read fast
(``evidence_lists``, ``event_items``): their text as ``oc adm inspect`` writes it, and what the
loader and the cache make of a document, to compare the fast and the full parse."""

from __future__ import annotations

import copy
from typing import Any

import yaml

from olmtui.shape import clean_envelope
from olmtui.sources.snapshots.snapshot_documents import parse_documents
from olmtui.sources.snapshots.snapshot_objects import Invalid, ignored_as, objects_in
from olmtui.store import trim
from olmtui.store_evidence import keeps_event


class GoStyle(yaml.SafeDumper):
    """Text as ``oc adm inspect`` writes it: sorted keys, unindented sequences, texts with
    line feeds as ``|-`` blocks, long texts folded."""


def _literal(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


GoStyle.add_representer(str, _literal)


def go_yaml(value: Any, width: int = 80) -> str:
    return "---\n" + yaml.dump(value, Dumper=GoStyle, width=width, sort_keys=True)


def listed(kind: str, api_version: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"apiVersion": api_version, "items": items, "kind": f"{kind}List", "metadata": {}}


def as_the_cache_reads(value: Any) -> list[Any]:
    """What the loader and the cache make of a document: each object's verdict, where it
    counts, whether it is kept, its wrong-typed fields and what the cache keeps of it."""
    seen: list[Any] = []
    for found in objects_in(copy.deepcopy(value)):
        if isinstance(found, Invalid):
            seen.append(("invalid", found.reason))
            continue
        problems: list[Any] = []
        cleaned = clean_envelope(found, problems)
        kept = found["kind"] != "Event" or keeps_event(found)
        trimmed = (
            trim(cleaned) if kept and isinstance(cleaned["metadata"].get("name"), str) else None
        )
        namespace = found["metadata"].get("namespace")
        seen.append((ignored_as(found), namespace, kept, [repr(p) for p in problems], trimmed))
    return seen


def assert_same(text: str | bytes) -> None:
    """The fast and the full parse of ``text`` give the loader and the cache the same."""
    data = text.encode() if isinstance(text, str) else text
    fast = list(parse_documents(data, json_format=False, fast=True))
    full = list(parse_documents(data, json_format=False, fast=False))
    assert [(d.line, d.problem) for d in fast] == [(d.line, d.problem) for d in full]
    for fast_doc, full_doc in zip(fast, full, strict=True):
        if full_doc.problem is None:
            assert as_the_cache_reads(fast_doc.value) == as_the_cache_reads(full_doc.value)


#: Pieces of real-shaped text an edit may put anywhere (the fast paths' soundness tests).
EDIT_PIECES = [
    "",
    " ",
    "- ",
    ": ",
    "#",
    "'",
    '"',
    "\\",
    "|",
    "|+",
    ">",
    "{",
    "}",
    "[",
    "]",
    ",",
    "&a ",
    "*a",
    "!x ",
    "\t",
    "?",
    "\n",
    "\n  ",
    "\n\n",
    "\n    x: 1\n",
    "\n- ",
    "\n---\n",
    "2021-13-45",
    "0x",
    "1.5",
    "=",
    "<<: ",
    "~",
    "yes",
    "é",
]
