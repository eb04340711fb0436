"""A copied CSV recognised as its CSV's other copies are: the same bytes but for its own
one-line metadata fields.

Every copy of a CSV is the same document in every namespace but for a few metadata lines
(``namespace``, ``uid``, ``resourceVersion``, ``creationTimestamp``), R-COPY-4. ``fast_yaml``
cuts a copy at its top-level keys and its metadata at its own keys, which searches its lines
again in every namespace. Once a copy has been cut with its spec, status, labels and
annotations remembered, its template holds the texts it was cut into and, between them,
where each of its own fields' lines goes.

A document that is the template's texts in order, with one line of a plain one-line field
(``simple_fields``) of the same key in each gap, cuts exactly as the template's copy did,
with its own lines in the gaps: such a line is one line, indented, of printable ASCII (no
line feed, carriage return or byte-order mark in it), so the document's lines at column 0
and at the metadata's indentation are the template's, and each gap's line ends its field
as the template's did (the text after it starts with a line no deeper). So its sections,
fields and nesting bound are those ``fast_yaml`` would find, found by comparing bytes in
place: no line searched, no section sliced but the metadata.

A template is found by the document's name line (the copies of a CSV share it; an
operator family's CSVs may share the length and both ends of their specs and their
status); all the rest of the document is compared, so a template found by it that is not
the document's is only a miss.
"""

from __future__ import annotations

from olmtui.frozen import frozen
from olmtui.sources.snapshots.simple_fields import simple_field

#: The line that finds a template: a copy's name, as ``oc`` and ``kubectl`` indent it.
_NAME_LINE = b"\n  name: "

#: A template's key (:func:`template_key`): the document's name line.
Key = bytes


#: A template's part: a text found in place and, when an own field's line ends it, that
#: field's key and how many of the text's last bytes start its line (indentation, key, colon).
Part = tuple[bytes, str | None, int]


@frozen
class Template:
    """The copy a template was made from, as texts and gaps.

    ``parts``: in order, each text found in place, the texts between two own lines in one
    (but a spec, the remembered text itself, shared, never copied into another). ``sections``
    and ``fields`` are the copy's cut, ``None`` where the document's own text goes (its
    metadata section, its own fields' lines). ``metadata_at``: where the metadata section
    starts; ``metadata_fixed``: its length without its own lines. ``brackets`` and ``block``:
    the nesting bound's parts of everything but its own lines."""

    parts: tuple[Part, ...]
    sections: tuple[tuple[str, bytes | None], ...]
    fields: tuple[tuple[str, bytes | None], ...]
    metadata_at: int
    metadata_fixed: int
    brackets: int
    block: int

    def size(self) -> int:
        """The bytes it holds: its parts', but the spec, which the remembered specs hold."""
        spec = dict(self.sections)["spec"]
        return sum(len(text) for text, _, _ in self.parts if text is not spec) + 256

    def own_lines(self, chunk: bytes) -> list[bytes] | None:
        """The document's own field lines when it is this template's texts with one plain
        line of the same key in each gap, else ``None``."""
        at = 0
        lines: list[bytes] = []
        for text, key, start in self.parts:
            if not chunk.startswith(text, at):
                return None
            at += len(text)
            if key is not None:
                end = chunk.find(b"\n", at) + 1
                line = chunk[at - start : end]
                read = simple_field(line) if end else None
                if read is None or read[0] != key:
                    return None
                lines.append(line)
                at = end
        return lines if at == len(chunk) else None


def template_key(chunk: bytes) -> Key | None:
    """What finds the templates a document may be: its first line that names it (the
    copies of one CSV, and only they, share it), or ``None``: no such line."""
    begin = chunk.find(_NAME_LINE) + 1
    end = chunk.find(b"\n", begin + len(_NAME_LINE)) + 1
    return chunk[begin:end] if begin and end else None


def template_of(
    chunk: bytes,
    sections: dict[str, bytes],
    fields: list[tuple[str, bytes]],
    shared: frozenset[str],
    bound: tuple[int, int],
) -> Template | None:
    """The template of a copy cut into ``sections`` and metadata ``fields`` (``shared``: the
    fields found as remembered texts; ``bound``: the bound's brackets and block of all but
    the own fields), or ``None`` when one of its own fields is not one plain line."""
    parts: list[Part] = []
    text = b""  # the text since the last own line
    at = 0
    if chunk.startswith(b"---\n"):
        text, at = b"---\n", 4
    metadata_at = metadata_fixed = 0
    for key, section in sections.items():
        if key == "spec":  # its own part, the remembered text itself
            parts += [(text, None, 0)] if text else []
            parts.append((section, None, 0))
            text = b""
        elif key != "metadata":
            text += section
        else:
            metadata_at = at
            text += b"metadata:\n"
            metadata_fixed = len(b"metadata:\n")
            for field, piece in fields:
                if field in shared:
                    text += piece
                    metadata_fixed += len(piece)
                    continue
                read = simple_field(piece)
                if read is None or read[0] != field:
                    return None
                start = piece[: piece.index(b":") + 1]
                parts.append((text + start, field, len(start)))
                text = b""
        at += len(section)
    parts += [(text, None, 0)] if text else []
    return Template(
        tuple(parts),
        tuple((key, None if key == "metadata" else value) for key, value in sections.items()),
        tuple((field, piece if field in shared else None) for field, piece in fields),
        metadata_at,
        metadata_fixed,
        *bound,
    )
