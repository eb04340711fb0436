"""The fast path for copied CSVs: parse only the parts of a YAML document the store keeps.

OLM copies every AllNamespaces CSV into every namespace, spec and all (R-COPY-4), so copies
are nearly all of a large snapshot's bytes, and the store keeps only their metadata and
status phase/reason/message (``store.trim``). Building the Python objects of a copy's spec
(thousands of nodes) is where a full parse spends its time, only for the store to drop them.

Exactness comes from cutting a document at its top-level keys, where YAML itself cuts it.
A document qualifies when every line at column 0 is a known top-level key (``apiVersion``,
``kind``, ``metadata``, ``spec``, ``status``, each at most once), so that no column-0 line
is a comment, directive, document marker, sequence entry or unusual key; nothing in it is an
carriage return or byte-order mark. Each such section is then a YAML
document of its own, and it is parsed as one (by the full parse's own ``load``)
and must come out as exactly its one key: a quoted or flow scalar running across a section
line, an alias to another section's anchor, a tag, bad UTF-8 or any other oddity makes some
section fail alone, and the document goes to the full parse. When every section parses
alone into its one key, the full parse of the document is the union of the sections.

The spec of a copy is only checked (a mapping or null, as ``object_problem`` wants), and a
copy's status gives only the fields the store keeps; both are remembered by their exact
bytes, since a copy's spec and status are those of its parent, identical text in every
namespace. A section whose bytes were seen and parsed alone before needs no parse again:
the same bytes parse the same way. The same goes for ``apiVersion`` and ``kind``.

The metadata is cut once more, at its own keys (every line at its mapping's indentation is
a plain key, each once), by the same argument one level down. Its labels and annotations
(alm-examples and all, most of its bytes) are the parent's in every copy: remembered by
their bytes, parsed alone the first time, the one value shared by every copy after. The
other fields (name, namespace, uid, timestamps) are read without a parser when each is one
line of a plain form (``simple_fields``), else parsed together, and must come out as
exactly their keys in order; they may hold no alias (``*``), so no anchor a remembered
field holds can be missed. When any of this does not hold, the metadata section is parsed
alone as before. So a copy costs the parse of its few own fields.

From a CSV's second copy on, its copies are not even cut: they are found by the template of
an earlier one (``copy_templates``), its texts compared in place with the copy's own
one-line fields between them, which gives the very cut the search of its lines would.

Anything else (a CSV that turns out not to be a copy, a section that fails, a spec that is
not a mapping) returns ``None`` and the caller parses the document in full, which gives the
value or the error it gives today.
"""

from __future__ import annotations

import datetime
import re
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

from olmtui.frozen import frozen
from olmtui.kinds import CSV
from olmtui.sources.input_limits import block_bound
from olmtui.sources.snapshots.copy_templates import Key, Template, template_key, template_of
from olmtui.sources.snapshots.simple_fields import simple_field
from olmtui.store import COPIED_FROM_LABEL, is_copied_csv

#: How a YAML document is parsed: the caller's own (``snapshot_documents``), so that every
#: limit it puts on a parse holds for the sections too.
Load = Callable[[bytes], Any]
#: Why the full parse refuses a whole loaded document (aliases, depth), or ``None``.
WholeProblem = Callable[[Any], "str | None"]

#: The top-level keys a copied CSV document may have (any other key: the full parse).
_SECTION_KEYS = (b"apiVersion", b"kind", b"metadata", b"spec", b"status")
#: A line at column 0 (after the first): a line feed then anything but a space or a feed.
_COLUMN_ZERO = re.compile(rb"\n[^ \n]")
#: A section start: one of the keys, its colon, then a blank or the line end.
_SECTION_START = re.compile(rb"(apiVersion|kind|metadata|spec|status):(?=[ \n])")
#: A carriage return (CRLF files) and a byte-order mark: the full parse, to be plain. The
#: other line breaks libyaml honours (NEL, LS, PS) stay inside a section, parse there as in
#: the whole document, and a key they would start comes out as a second key of the section.
_ODD = (b"\r", b"\xef\xbb\xbf")
#: The status fields a copy keeps (``store.trim``).
_COPY_STATUS = ("phase", "reason", "message")
#: The hint that a document may be a copy, before anything is parsed.
_COPY_HINT = COPIED_FROM_LABEL.encode()
_CSV_HINT = b"\nkind: ClusterServiceVersion\n"
#: How many bytes of section text the remembered sections may hold (per process).
_REMEMBERED_BYTES = 64 * 1024 * 1024
_IMMUTABLE = (str, int, float, bool, type(None))
#: The values a remembered map may hold: one object is shared by every copy.
_SHAREABLE = (*_IMMUTABLE, datetime.date)
#: The metadata fields remembered by their bytes: the same in every copy of a CSV.
_REMEMBERED_FIELDS = frozenset({"labels", "annotations"})
_METADATA_LINE = b"metadata:\n"
#: The sections whose bounds are remembered: the same bytes in every copy.
_BOUNDS_REMEMBERED = frozenset({"apiVersion", "kind", "spec", "status"})
#: How many first bytes of a remembered metadata field find it (``known_field``), and how
#: many first and last bytes of a remembered spec, with its length (``_known_spec``).
_FIELD_PREFIX = 256
_SPEC_ENDS = 64
#: How many remembered texts found by the same bytes are tried, the newest first. A
#: must-gather's copies come a namespace at a time, every CSV in turn: were fewer tried
#: than there are CSVs sharing those bytes (an operator family's boilerplate, one example
#: in every CSV), some would never be found, their copies cut and hashed in full as if
#: new. A text tried that is not the copy's differs from it within a few hundred bytes,
#: nearly always.
_CANDIDATES = 32
#: The deepest indentation of a metadata mapping the cut handles (kubectl and oc use 2).
_MAX_INDENT = 8


@cache
def field_patterns(indent: int) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """For a metadata mapping at ``indent`` spaces: a plain key at that indentation (its
    colon then a blank or the line end), and a line (after the first) indented no deeper.
    Compiled when first needed (one indentation in practice, two spaces), not on import."""
    key_line = re.compile(rb" {%d}([A-Za-z0-9_][A-Za-z0-9_./-]*):(?=[ \n])" % indent)
    shallow_line = re.compile(rb"\n {0,%d}[^ \n]" % indent)
    return key_line, shallow_line


class _Remembered:
    """Sections parsed alone before, by their exact bytes: a spec that was a mapping or
    null, a status as the fields a copy keeps (a dict of immutable values), an
    ``apiVersion`` or ``kind`` (an immutable value), a metadata field that is a map of
    immutable values (labels, annotations: shared by the copies, never changed)."""

    def __init__(self) -> None:
        #: the specs that were a mapping or null, each to the object remembered...
        self.specs: dict[bytes, bytes] = {}
        #: ...by their length and ends (``_known_spec``: a spec is 16 KB to hash), the newest
        #: first
        self.spec_at: dict[tuple[int, bytes, bytes], list[bytes]] = {}
        #: the brackets and block bound of a section or field that repeats (``bound``)
        self.bounds: dict[bytes, tuple[int, int]] = {}
        #: remembered metadata fields by their first bytes, newest first (``known_field``)
        self.fields_at: dict[bytes, list[bytes]] = {}
        self.statuses: dict[bytes, dict[str, Any]] = {}
        #: an apiVersion's or kind's section text to its value
        self.values: dict[bytes, Any] = {}
        #: a metadata field's text to the object remembered (found again by ``known_field``
        #: as that one object, never a second copy of its bytes) and its value
        self.fields: dict[bytes, tuple[bytes, Any]] = {}
        #: The identities of the remembered metadata fields (see :func:`shared_field`).
        self.shared: set[int] = set()
        #: copies' templates by their key, the newest first (``copy_templates``)
        self.templates: dict[Key, list[Template]] = {}
        self.size = 0

    def _room(self, more: int) -> None:
        if self.size + more > _REMEMBERED_BYTES:
            self.specs.clear()
            self.spec_at.clear()
            self.bounds.clear()
            self.fields_at.clear()
            self.statuses.clear()
            self.values.clear()
            self.fields.clear()
            self.shared.clear()
            self.templates.clear()
            self.size = 0
        self.size += more

    def section(self, text: bytes, key: str, load: Load) -> Any:
        """A top-level section's value (``_FAILED``: it does not parse alone)."""
        if text in self.values:
            return self.values[text]
        value = _alone(text, key, load)
        if isinstance(value, _IMMUTABLE):
            self._room(len(text))
            self.values[text] = value
        return value

    def field(self, text: bytes, key: str, load: Load) -> Any:
        """A remembered metadata field's value: a map of string keys to immutable values
        (YAML reads an unquoted date as a ``datetime``), or ``_FAILED`` (not one, or it does
        not parse alone: remembered too, and then parsed with the copy's own fields). A
        field :meth:`known_field` did not find (a new slice) is findable from then on."""
        held = self.fields.get(text)
        if held is not None and held[0] is text:
            return held[1]
        if held is None:
            value = _alone(text, key, load)
            if type(value) is not dict or not all(
                type(k) is str and isinstance(v, _SHAREABLE) for k, v in value.items()
            ):
                value = _FAILED
            self._room(len(text))
            held = self.fields[text] = (text, value)
            if value is not _FAILED:
                self.shared.add(id(value))
        known, value = held
        if len(known) > _FIELD_PREFIX:
            _first_of(self.fields_at.setdefault(known[:_FIELD_PREFIX], []), known)
        return value

    def spec_ok(self, text: bytes, load: Load) -> bool:
        """Whether a spec parses alone as a mapping or null. One that did is found by
        :func:`_known_spec` from then on: a spec it did not find (a new slice) is put first
        among those it tries."""
        known = self.specs.get(text)
        if known is text:
            return True
        if known is None:
            value = _alone(text, "spec", load)
            if value is _FAILED or not (value is None or isinstance(value, dict)):
                return False
            self._room(len(text))
            self.specs[text] = known = text
        _first_of(self.spec_at.setdefault(_spec_key(known, 0, len(known)), []), known)
        return True

    def bound(self, text: bytes) -> tuple[int, int]:
        """:func:`section_bound` of a text that repeats in every copy (its apiVersion and
        kind lines, spec, status, remembered metadata fields), counted once."""
        known = self.bounds.get(text)
        if known is None:
            known = section_bound(text)
            self._room(len(text))
            self.bounds[text] = known
        return known

    def known_field(self, body: bytes, begin: int, shallow_line: re.Pattern[bytes]) -> bytes | None:
        """The remembered field that is the field of ``body`` starting at ``begin`` (a line
        of a key at the mapping's indentation), or ``None``. A remembered field was cut by
        :func:`_fields` with the same indentation (its first line says it): no line after its
        first is that shallow, and it ends with a line feed. So when ``body`` holds its bytes
        at ``begin`` and a line that shallow (or the end) right after them, the field is
        exactly those bytes, found without searching its lines (the alm-examples of an
        annotation are most of a copy's metadata)."""
        for text in self.fields_at.get(body[begin : begin + _FIELD_PREFIX], ()):
            end = begin + len(text)
            if body.startswith(text, begin) and (
                end == len(body) or shallow_line.match(body, end - 1) is not None
            ):
                return text
        return None

    def templated(self, chunk: bytes) -> Cut | None:
        """The document's cut from a template it is (``copy_templates``), or ``None``."""
        key = template_key(chunk)
        for template in self.templates.get(key, ()) if key is not None else ():
            lines = template.own_lines(chunk)
            if lines is not None:
                return _cut_of(template, chunk, lines)
        return None

    def learn(self, chunk: bytes, made: Cut) -> None:
        """A template of a copy just cut whose spec and shared metadata fields are the
        remembered texts themselves (from its CSV's second copy on), found from then on."""
        sections = made.sections
        if made.fields is None or self.specs.get(sections["spec"]) is not sections["spec"]:
            return
        fields: list[tuple[str, bytes]] = []
        for field, piece in made.fields:
            if field in _REMEMBERED_FIELDS:
                held = self.fields.get(piece)
                if held is None or held[1] is _FAILED:
                    return
                piece = held[0]  # the remembered text itself: its value found by identity
            fields.append((field, piece))
        key = template_key(chunk)
        parts = [self.bound(text) for k, text in sections.items() if k != "metadata"]
        parts += [self.bound(piece) for k, piece in fields if k in _REMEMBERED_FIELDS]
        bound = sum(b for b, _ in parts), max(block for _, block in parts)
        template = template_of(chunk, sections, fields, _REMEMBERED_FIELDS, bound)
        if key is None or template is None:
            return
        self._room(template.size())
        candidates = self.templates.setdefault(key, [])
        candidates.insert(0, template)
        del candidates[_CANDIDATES:]

    def status(self, text: bytes, load: Load) -> dict[str, Any] | None:
        kept = self.statuses.get(text)
        if kept is not None:
            return dict(kept)
        value = _alone(text, "status", load)
        if value is _FAILED or not (value is None or isinstance(value, dict)):
            return None
        kept = {k: value[k] for k in _COPY_STATUS if k in value} if value else {}
        if all(isinstance(v, _IMMUTABLE) for v in kept.values()):
            self._room(len(text))
            self.statuses[text] = kept
            return dict(kept)
        return kept


def _first_of(candidates: list[bytes], text: bytes) -> None:
    """Put a remembered ``text`` (the object remembered) first among the texts found by the
    same bytes, if not there already, letting the oldest go past :data:`_CANDIDATES`."""
    if candidates and candidates[0] is text:
        return
    for at, other in enumerate(candidates):
        if other is text:
            del candidates[at]
            break
    candidates.insert(0, text)
    del candidates[_CANDIDATES:]


_FAILED = object()
_remembered = _Remembered()


def shared_field(value: Any) -> bool:
    """Whether ``value`` is a remembered metadata field: one object in every copy that has
    it, never changed (a parse worker sends it to the loader once)."""
    return id(value) in _remembered.shared


def _alone(text: bytes, key: str, load: Load) -> Any:
    """The value of a section parsed as a document of its own, or ``_FAILED`` when it does
    not parse or is not exactly the one mapping key it should be."""
    try:
        parsed = load(text)
    except Exception:  # anything at all: the full parse gives today's value or error
        return _FAILED
    if type(parsed) is not dict or len(parsed) != 1 or key not in parsed:
        return _FAILED
    return parsed[key]


def section_bound(text: bytes) -> tuple[int, int]:
    """A section's part of its document's nesting bound: its brackets, its block bound."""
    return text.count(b"[") + text.count(b"{"), block_bound(text)


@frozen
class Cut:
    """A document that may be a copied CSV, cut at its top-level keys before anything is
    parsed, and the bound its bytes put on its nesting (``input_limits.nesting_bound`` of the
    whole document: the sections' bracket counts added, the largest of their block bounds;
    a remembered spec's are remembered with it)."""

    sections: dict[str, bytes]
    bound: int
    #: The metadata section cut at its keys (:func:`_fields`), or ``None``.
    fields: list[tuple[str, bytes]] | None


def cut(chunk: bytes) -> Cut | None:
    """The document cut at its top-level keys, or ``None`` when it is no copied CSV the fast
    path may read (parse it in full)."""
    if _COPY_HINT not in chunk or _CSV_HINT not in chunk:
        return None
    templated = _remembered.templated(chunk)
    if templated is not None:
        return templated
    sections = _sections(chunk)
    if sections is None or "spec" not in sections or "metadata" not in sections:
        return None
    fields = _fields(sections["metadata"])
    brackets = block = 0
    for key, text in sections.items():
        if key in _BOUNDS_REMEMBERED:
            section_brackets, section_block = _remembered.bound(text)
        elif key == "metadata" and fields is not None:
            section_brackets, section_block = _fields_bound(fields)
        else:
            section_brackets, section_block = section_bound(text)
        brackets += section_brackets
        block = max(block, section_block)
    made = Cut(sections, brackets + block, fields)
    _remembered.learn(chunk, made)
    return made


def _cut_of(template: Template, chunk: bytes, lines: list[bytes]) -> Cut:
    """The cut of a document that is ``template`` with its own ``lines`` in its gaps: the
    template's texts, its metadata section from the document, its own lines' part of the
    bound added to the template's (as :func:`_fields_bound` adds them)."""
    own = iter(lines)
    fields = [(key, next(own) if piece is None else piece) for key, piece in template.fields]
    metadata_end = template.metadata_at + template.metadata_fixed + sum(map(len, lines))
    sections = {
        key: chunk[template.metadata_at : metadata_end] if text is None else text
        for key, text in template.sections
    }
    own_brackets, own_block = section_bound(b"".join(lines))
    return Cut(sections, template.brackets + own_brackets + max(template.block, own_block), fields)


def _fields_bound(fields: list[tuple[str, bytes]]) -> tuple[int, int]:
    """The metadata section's part of the bound, from its fields (cut at line starts, so
    their parts add up as the sections' do; its own ``metadata:`` line holds no bracket and
    no long run): a remembered field's part counted once, the others' together."""
    brackets = block = 0
    own: list[bytes] = []
    for key, piece in fields:
        if key in _REMEMBERED_FIELDS:
            field_brackets, field_block = _remembered.bound(piece)
            brackets += field_brackets
            block = max(block, field_block)
        else:
            own.append(piece)
    own_brackets, own_block = section_bound(b"".join(own))
    return brackets + own_brackets, max(block, own_block)


def _sections(body: bytes) -> dict[str, bytes] | None:
    """The document cut at its top-level keys, or ``None`` when it does not qualify (found
    at the first line at column 0 that starts no section: a multi-document file is not
    searched past its first document, nor copied past a first ``---`` line)."""
    begin = 0
    if body.startswith(b"---"):
        if not body.startswith(b"---\n"):
            return None
        begin = 4
    sections: dict[str, bytes] = {}
    while begin < len(body):
        match = _SECTION_START.match(body, begin)
        if match is None:
            return None
        key = match.group(1).decode()
        if key in sections:
            return None
        text = _known_spec(body, begin) if key == "spec" else None
        if text is None:
            found = _COLUMN_ZERO.search(body, begin)
            text = body[begin : len(body) if found is None else found.start() + 1]
        sections[key] = text
        begin += len(text)
    # after the cut, which ends a multi-document file at its first document's end; b"\xef"
    # first: one byte is found at memchr's speed, the mark's three 50 times slower
    if _ODD[0] in body or (b"\xef" in body and _ODD[1] in body):
        return None
    return sections


def _known_spec(body: bytes, begin: int) -> bytes | None:
    """The spec section starting at ``begin`` when its bytes, up to the last ``status:``
    line, are a remembered spec's: one was cut so when first seen, so it holds no line at
    column 0 and its lines need no search. Found by its length and first bytes, compared
    in place: the remembered object comes back, its hash computed once, not a new slice's."""
    end = body.rfind(b"\nstatus:", begin) + 1
    if end <= begin:
        return None
    for text in _remembered.spec_at.get(_spec_key(body, begin, end), ()):
        if body.startswith(text, begin):
            return text
    return None


def _spec_key(body: bytes, begin: int, end: int) -> tuple[int, bytes, bytes]:
    """What finds a remembered spec that may be ``body[begin:end]``: its length and ends."""
    return end - begin, body[begin : begin + _SPEC_ENDS], body[max(begin, end - _SPEC_ENDS) : end]


def _metadata(text: bytes, fields: list[tuple[str, bytes]] | None, load: Load) -> Any:
    """The metadata section's value, its remembered fields shared (``_FAILED``: it does not
    parse alone); ``fields``: the section cut at its keys (:func:`_fields`)."""
    if fields is None:
        return _alone(text, "metadata", load)
    values: dict[str, Any] = {}
    own: list[bytes] = []
    for key, piece in fields:
        if key in _REMEMBERED_FIELDS:
            value = _remembered.field(piece, key, load)
            if value is not _FAILED:
                values[key] = value
                continue
        simple = simple_field(piece)
        if simple is not None and simple[0] == key:
            values[key] = simple[1]
            continue
        own.append(piece)
    if own:
        rest = b"".join(own)
        parsed = _FAILED if b"*" in rest else _parsed_mapping(rest, load)
        keys = [key for key, _ in fields if key not in values]
        if type(parsed) is not dict or list(parsed) != keys:
            return _alone(text, "metadata", load)
        values.update(parsed)
    return {key: values[key] for key, _ in fields}


def _parsed_mapping(text: bytes, load: Load) -> Any:
    """``text`` parsed as a document, or ``_FAILED``."""
    try:
        return load(text)
    except Exception:  # anything at all: the metadata section is parsed alone instead
        return _FAILED


def _fields(text: bytes) -> list[tuple[str, bytes]] | None:
    """A metadata section (``metadata:`` on its own line, then a block mapping) cut at its
    keys, or ``None`` when it does not qualify: its first line is not a plain key, a line is
    indented less than that key, or a line at the key's indentation is not a plain key
    (a comment, a sequence entry, a quoted or complex key), or a key comes twice."""
    if not text.startswith(_METADATA_LINE) or not text.endswith(b"\n"):
        return None
    body = text[len(_METADATA_LINE) :]
    indent = len(body) - len(body.lstrip(b" "))
    if not 0 < indent <= _MAX_INDENT:
        return None
    key_line, shallow_line = field_patterns(indent)
    fields: list[tuple[str, bytes]] = []
    begin = 0
    while begin < len(body):
        match = key_line.match(body, begin)
        if match is None:
            return None
        # one string per key in a worker, which pickles each once, not in every copy
        key = sys.intern(match.group(1).decode())
        piece = (
            _remembered.known_field(body, begin, shallow_line)
            if key in _REMEMBERED_FIELDS
            else None
        )
        if piece is None:
            found = shallow_line.search(body, begin)
            piece = body[begin : len(body) if found is None else found.start() + 1]
        fields.append((key, piece))
        begin += len(piece)
    if len({key for key, _ in fields}) != len(fields):
        return None
    return fields


def copied_csv(
    chunk: bytes, load: Load, whole_problem: WholeProblem | None = None
) -> dict[str, Any] | None:
    """:func:`copy_of` the document's :func:`cut` (``None`` when it has none)."""
    document_cut = cut(chunk)
    return None if document_cut is None else copy_of(document_cut, load, whole_problem)


def copy_of(
    document_cut: Cut, load: Load, whole_problem: WholeProblem | None = None
) -> dict[str, Any] | None:
    """A copied CSV document as the store will keep it (metadata in full, the status
    fields a copy keeps, no spec), or ``None``: parse this document in full. ``load``
    parses one YAML document, as the full parse does. ``whole_problem``: the check the full
    parse makes of the whole loaded value (aliases, depth), when it makes one. The caller
    has checked the document's nesting (``document_cut.bound``) before."""
    sections = document_cut.sections
    if whole_problem is not None:
        return _checked_whole(sections, load, whole_problem)
    obj: dict[str, Any] = {}
    for key in ("apiVersion", "kind", "metadata"):
        if key in sections:
            if key == "metadata":
                value = _metadata(sections[key], document_cut.fields, load)
            else:
                value = _remembered.section(sections[key], key, load)
            if value is _FAILED:
                return None
            obj[key] = value
    if "status" in sections:
        status = _remembered.status(sections["status"], load)
        if status is None:
            return None
        obj["status"] = status
    if obj.get("kind") != CSV or not _is_copy(obj):
        return None
    if not _remembered.spec_ok(sections["spec"], load):
        return None
    return obj


def _checked_whole(
    sections: dict[str, bytes], load: Load, whole_problem: WholeProblem
) -> dict[str, Any] | None:
    """The copy of a document whose whole value the full parse checks: every section parsed
    alone, nothing remembered, and the check made of their union, which is the full parse's
    value (the same keys in the same order, the same objects shared within a section, none
    between sections: an alias to another section does not parse alone)."""
    whole: dict[str, Any] = {}
    for key, text in sections.items():
        value = _alone(text, key, load)
        if value is _FAILED:
            return None
        whole[key] = value
    status = whole.get("status")
    if not all(v is None or isinstance(v, dict) for v in (whole["spec"], status)):
        return None
    if whole.get("kind") != CSV or not _is_copy(whole):
        return None
    if whole_problem(whole) is not None:
        return None
    obj: dict[str, Any] = {
        key: whole[key] for key in ("apiVersion", "kind", "metadata") if key in whole
    }
    if "status" in whole:
        obj["status"] = {k: status[k] for k in _COPY_STATUS if k in status} if status else {}
    return obj


def _is_copy(obj: dict[str, Any]) -> bool:
    """R-COPY-1 as the store decides it, on a metadata shaped as the store expects."""
    metadata = obj["metadata"]
    if not isinstance(metadata, dict):
        return False
    if not all(isinstance(metadata.get(f), dict | None) for f in ("labels", "annotations")):
        return False
    return is_copied_csv(obj)
