"""Split the bytes of one YAML or JSON file into parsed documents, each with its first line.

A snapshot file is often a long multi-document YAML stream (``kubectl get -o yaml`` output
glued together, or a must-gather file starting with ``---``). One broken document must not
lose the rest, so YAML streams are cut on ``---`` separator lines here, not by PyYAML, and
each piece is parsed on its own from bytes with libyaml (``CSafeLoader``): as fast as
``load_all`` and the only way to go on after an error. JSON files may hold one value (parsed
by msgspec when it reads it as ``json.loads`` would, ``fast_json``) or a stream of
concatenated values (JSON lines included). A copied CSV is parsed only in the parts the store
keeps (``fast_yaml``), and so are a must-gather's Lists of Pods, Events and Jobs
(``evidence_lists``); any other document of the block forms ``oc`` writes is read line by
line (``plain_documents``).

Documents that would crash or exhaust the parse or a later walk (nested too deep, an alias
bomb, a huge integer) come out as documents with a problem too (``input_limits``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import chain, pairwise
from typing import Any

import yaml

from olmtui.frozen import frozen
from olmtui.sources import fast_json
from olmtui.sources.input_limits import (
    DEPTH_PROBLEM,
    integer_problem,
    json_depth_guard,
    libyaml_too_deep,
    may_hold_surrogates,
    nesting_of,
    replace_surrogates,
    whole_value_check,
    yaml_nesting,
)
from olmtui.sources.snapshots import fast_yaml
from olmtui.sources.snapshots.evidence_lists import evidence_list
from olmtui.sources.snapshots.json_list_items import lazy_list
from olmtui.sources.snapshots.plain_documents import plain_document
from olmtui.sources.snapshots.plain_loader import PlainLoader

#: libyaml's safe loader, its values built faster (``plain_loader``): the same values.
YamlLoader: type = PlainLoader

#: A document separator: ``---`` at the start of a line, then a blank, a line end or the end.
#: YAML forbids this marker inside any scalar at column 0, so cutting here is always safe.
#: Searched for after a line feed (a file's first document starts at 0 anyway): ``^`` with
#: ``re.MULTILINE`` finds the same places, but tries every byte of a file, 25 times slower.
_SEPARATOR_AFTER_LF = re.compile(rb"\n---(?=[ \t\r\n]|\Z)")
#: Where a JSON stream may resume after a broken value: a line opening an object at column 0
#: (how ``kubectl get -o json`` output and JSON lines start each object).
_JSON_RESUME = re.compile(r"^\{", re.MULTILINE)
_JSON_SPACE = re.compile(r"[ \t\r\n]*")
_JSON_SPACE_BYTES = re.compile(rb"[ \t\r\n]*")
#: A YAML stream larger than this lets go of each document's bytes as it is taken (the
#: snapshot loader parses files this large itself, one document at a time).
RELEASED_BYTES = 16 * 1024 * 1024


@frozen
class Document:
    """One parsed document: its value (``None`` for an empty one), or why it did not parse.

    ``line`` is the 1-based line of the file where the document starts.
    """

    line: int
    value: Any = None
    problem: str | None = None


def parse_documents(
    data: bytes,
    *,
    json_format: bool,
    fast: bool = True,
    lazy_lists: bool = False,
    pod_events_of: str | None = None,
) -> Iterator[Document]:
    """Every document of one file, in order; parse errors come as documents with a problem.

    ``fast``: a copied CSV comes as the store will keep it, its spec checked but not built
    (``fast_yaml``); ``False`` parses every document in full (the reference for tests).
    ``lazy_lists``: a JSON file that is one List has its ``items`` as a
    :class:`~olmtui.sources.snapshots.json_list_items.ListItems`, each decoded when taken (the
    snapshot loader's large files). ``pod_events_of``: a namespace whose Pod Events an
    ``EventList`` read on the fast path leaves out (``evidence_lists``; the loader leaves
    them out of any other document)."""
    if json_format:
        return _parse_json(data, lazy_lists)
    return _parse_yaml(data, fast, pod_events_of)


def _parse_yaml(data: bytes, fast: bool, pod_events_of: str | None) -> Iterator[Document]:
    whole_cut = fast_yaml.cut(data) if fast and len(data) <= RELEASED_BYTES else None
    if whole_cut is not None:
        # A copied CSV cut whole: every line at column 0 starts one of its sections, so no
        # separator line (``---`` at column 0) is in it and it is the file's one document;
        # looking for separators cost a copy 13 us of its ~110 (``bytes.find`` in YAML).
        yield _yaml_document(data, 1, fast, pod_events_of, whole_cut)
        return
    pieces = _released_pieces(data) if len(data) > RELEASED_BYTES else _pieces(data)
    del data  # a large stream is held by its pieces' generator alone, which lets it go
    line = 1
    before: bytes | None = None  # the lines of the document before, counted once another comes
    for chunk in pieces:
        if before is not None:
            line += before.count(b"\n")
        yield _yaml_document(chunk, line, fast, pod_events_of)
        before = chunk


def _pieces(data: bytes) -> Iterator[bytes]:
    """The documents of a YAML stream, cut on its separator lines (always one, if empty).
    The separators are found as the documents are taken: a list of where 1,600,000
    documents start was 64 MB of ints beside the objects being cached."""
    starts = chain((0,), _separators(data), (len(data),))
    for begin, end in pairwise(starts):
        yield data[begin:end]


def _separators(data: bytes) -> Iterator[int]:
    """Where each document after the first starts: where :data:`_SEPARATOR_AFTER_LF` matches,
    found with ``bytes.find`` (a must-gather file is one document: the regular expression
    tried every line of it, ``find`` skips to the only candidates)."""
    at = data.find(b"\n---")
    while at >= 0:
        after = at + 4
        if after == len(data) or data[after] in _BLANKS:
            yield at + 1
        at = data.find(b"\n---", after)  # "\n---" cannot overlap itself


#: What may follow a separator's ``---`` on its line (:data:`_SEPARATOR_AFTER_LF`).
_BLANKS = frozenset(b" \t\r\n")


def _released_pieces(data: bytes) -> Iterator[bytes]:
    """:func:`_pieces`, the bytes of each piece let go of once it is cut: the 100 MB of a
    stream of 1,600,000 Namespaces were held until its last document was cached (issue
    24). A ``bytearray`` cut at its front gives back its memory as it shrinks."""
    rest = bytearray(data)
    del data
    while True:
        found = _SEPARATOR_AFTER_LF.search(rest)
        end = len(rest) if found is None else found.start() + 1
        with memoryview(rest) as view:
            piece = bytes(view[:end])
        del rest[:end]
        yield piece
        if found is None:
            return


def _yaml_document(
    chunk: bytes,
    line: int,
    fast: bool,
    pod_events_of: str | None = None,
    copy_cut: fast_yaml.Cut | None = None,
) -> Document:
    """One YAML document starting at ``line``, parsed unless the limits refuse it; a copied
    CSV or a List of Pods, Events or Jobs only in the parts the store keeps when ``fast``.
    ``copy_cut``: the document's :func:`fast_yaml.cut`, when the caller made it."""
    if copy_cut is None and fast:
        copy_cut = fast_yaml.cut(chunk)
    nesting = yaml_nesting(chunk) if copy_cut is None else nesting_of(chunk, copy_cut.bound)
    if nesting.too_deep_at is not None:
        return Document(line, problem=f"line {line + nesting.too_deep_at}: {DEPTH_PROBLEM}")
    try:
        whole_problem = whole_value_check(chunk, nesting)
        read = None if copy_cut is None else fast_yaml.copy_of(copy_cut, load_yaml, whole_problem)
        if read is None and fast and whole_problem is None:
            read = evidence_list(chunk, load_yaml, pod_events_of=pod_events_of)
            if read is None:
                read = plain_document(chunk, load_yaml)
        value = load_yaml(chunk) if read is None else read
    except yaml.YAMLError as exc:
        too_deep = libyaml_too_deep(exc)
        if too_deep is not None:
            return Document(line, problem=f"line {line + too_deep}: {DEPTH_PROBLEM}")
        return Document(line, problem=_yaml_problem(exc, line))
    except ValueError as exc:  # e.g. an impossible date such as 2021-13-45
        return Document(line, problem=f"line {line}: {integer_problem(exc) or exc}")
    except Exception as exc:  # PyYAML's constructors fail so on odd input (``!!int`` alone)
        why = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return Document(line, problem=f"line {line}: PyYAML cannot load it ({why})")
    unusable = None if whole_problem is None else whole_problem(value)
    if unusable is not None:
        return Document(line, problem=f"line {line}: {unusable}")
    return Document(line, value)


def load_yaml(chunk: bytes) -> Any:
    """One YAML document, as every document and every fast-path section is parsed."""
    return yaml.load(chunk, Loader=YamlLoader)


def _yaml_problem(exc: yaml.YAMLError, first_line: int) -> str:
    """The YAML error as one line, with the line number in the file (not in the piece)."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    if mark is None:
        return f"line {first_line}: {problem}"
    return f"line {first_line + mark.line}, column {mark.column + 1}: {problem}"


def _after_space(text: str, pos: int) -> int:
    """Where the JSON whitespace at ``pos`` ends (the pattern also matches none)."""
    match = _JSON_SPACE.match(text, pos)
    assert match is not None
    return match.end()


def _after_space_bytes(data: bytes) -> int:
    """Where the JSON whitespace at the start of ``data`` ends."""
    match = _JSON_SPACE_BYTES.match(data)
    assert match is not None
    return match.end()


def _parse_json(data: bytes, lazy_lists: bool) -> Iterator[Document]:
    # One value, as kubectl writes it: msgspec if it reads it exactly, from the bytes (it
    # refuses bad UTF-8): the text is decoded only for what it refuses, never beside a
    # 100 MB List's objects.
    raw = data.removeprefix(b"\xef\xbb\xbf")
    start = _after_space_bytes(raw)
    if start < len(raw):
        value = lazy_list(raw) if lazy_lists else fast_json.REFUSED
        if value is fast_json.REFUSED:
            value = fast_json.strict(raw)
        if value is not fast_json.REFUSED:
            line = 1 + raw.count(b"\n", 0, start)
            del data, raw  # not held beside the objects while the loader takes them
            yield Document(line, value)
            return
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        yield Document(1, problem=f"line 1: not UTF-8 text ({exc.reason} at byte {exc.start})")
        return
    pos = _after_space(text, 0)
    line = 1 + text.count("\n", 0, pos)
    decoder = json.JSONDecoder()
    json_depth_guard(text)
    while pos < len(text):
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            yield Document(line, problem=f"line {exc.lineno}, column {exc.colno}: {exc.msg}")
            end = _json_resume(text, exc.pos)
        except RecursionError:
            yield Document(line, problem=f"line {line}: {DEPTH_PROBLEM}")
            end = _json_resume(text, pos)
        except ValueError as exc:  # an integer past Python's digit limit
            yield Document(line, problem=f"line {line}: {integer_problem(exc) or exc}")
            end = _json_resume(text, pos)
        else:
            if may_hold_surrogates(text, pos, end):
                value = replace_surrogates(value)
            yield Document(line, value)
        line += text.count("\n", pos, end)
        pos = end
        skipped = _after_space(text, pos)
        line += text.count("\n", pos, skipped)
        pos = skipped


def _json_resume(text: str, failed_at: int) -> int:
    """Where to go on after a broken JSON value: the next line opening an object at column 0
    after the line that failed, else the end."""
    resume = _JSON_RESUME.search(text, text.find("\n", failed_at) + 1 or len(text))
    return len(text) if resume is None else resume.start()
