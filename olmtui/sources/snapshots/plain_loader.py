"""libyaml's safe loader, its values built faster: the same values, the same errors.

A must-gather's documents that take no fast path (CSVs, Subscriptions, InstallPlans,
OperatorGroups, Namespaces) are parsed in full by ``CSafeLoader``: libyaml composes the
node tree in C, but asks Python for every scalar's tag (``resolve``) and builds every value
in Python (``SafeConstructor``): a dispatch, a generator per mapping and sequence, a merge-key
pass per mapping. Building was half of a full parse, and a CSV is thousands of nodes.

:class:`PlainLoader` changes two things, each giving what the safe loader gives:

- a plain scalar's tag depends on its text alone (the implicit resolvers match the text;
  no path resolver is registered on the safe loaders), so the tag of a short plain scalar is
  remembered by its text; a quoted or block scalar is a string, a collection its default tag,
  as ``resolve`` says when it matches nothing;
- a document whose text lacks ``*`` or ``&`` holds no alias (an alias names an anchor), so
  none of its values is shared or recursive; it is built in one recursive pass
  (:func:`_built`) as long as it holds only what the safe constructor builds plainly:
  mappings and sequences of the default tags, scalar keys, and scalars of the tags read
  directly (a string is its text; null, booleans, integers, floats, timestamps and binary
  go through the safe constructor's own methods). Any other document (aliases, a merge key
  ``<<``, a ``=`` key, a set, an omap, any other tag, a collection as a key), or one whose
  building fails in any way (a bad date, an integer too long, nesting deeper than Python
  recurses), is built again by the safe constructor, which gives the value or the error it
  always gave.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

_Base: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
#: The scalar tags built by the safe constructor's own method, called directly.
_SCALARS: dict[str, Any] = {
    tag: yaml.SafeLoader.yaml_constructors[tag]
    for tag in (
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:timestamp",
        "tag:yaml.org,2002:binary",
    )
}
#: Plain scalars longer than this are resolved each time (names, versions and numbers are
#: short; long text is rarely plain and rarely repeated).
_REMEMBERED_LENGTH = 64
#: How many plain scalars' tags are remembered (per process), before starting over.
_REMEMBERED_COUNT = 65536


class _Unusual(Exception):
    """The document holds something :func:`_built` leaves to the safe constructor."""


_plain_tags: dict[str, str] = {}


class PlainLoader(_Base):  # type: ignore[misc]  # a PyYAML loader class
    """``CSafeLoader`` (``SafeLoader`` without libyaml) with the tags of plain scalars
    remembered and documents built in one pass (module docstring)."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        #: Whether the text may hold an alias (a stream that is no text: assume it may).
        self._aliased = not isinstance(stream, bytes | str) or (
            ("*" in stream and "&" in stream)
            if isinstance(stream, str)
            else (b"*" in stream and b"&" in stream)
        )

    def resolve(self, kind: type[Node], value: str, implicit: tuple[bool, bool]) -> str:
        if self.yaml_path_resolvers:  # none on the safe loaders; if ever, as PyYAML does
            return str(super().resolve(kind, value, implicit))
        if kind is not ScalarNode:
            return str(
                self.DEFAULT_SEQUENCE_TAG if kind is SequenceNode else self.DEFAULT_MAPPING_TAG
            )
        if not implicit[0]:
            return _STR
        tag = _plain_tags.get(value)
        if tag is None:
            tag = str(super().resolve(kind, value, implicit))
            if len(value) <= _REMEMBERED_LENGTH:
                if len(_plain_tags) >= _REMEMBERED_COUNT:
                    _plain_tags.clear()
                _plain_tags[value] = tag
        return tag

    def construct_document(self, node: Node) -> Any:
        if self._aliased:
            return super().construct_document(node)
        try:
            return _built(self, node)
        except Exception:  # _Unusual, or any error: the safe constructor's word
            return super().construct_document(node)


def _built(loader: Any, node: Node) -> Any:
    """The value of ``node`` as the safe constructor builds it, when it holds only what this
    pass builds (module docstring); :class:`_Unusual` otherwise."""
    kind = node.__class__
    if kind is ScalarNode:
        tag = node.tag
        if tag == _STR:
            return node.value
        construct = _SCALARS.get(tag)
        if construct is None:
            raise _Unusual
        return construct(loader, node)
    if kind is MappingNode:
        if node.tag != _MAP:
            raise _Unusual
        mapping = {}
        for key_node, value_node in node.value:
            if key_node.__class__ is not ScalarNode:
                raise _Unusual
            key_tag = key_node.tag
            if key_tag == _STR:
                key = key_node.value
            else:
                construct = _SCALARS.get(key_tag)
                if construct is None:  # a merge key, a ``=``, another tag
                    raise _Unusual
                key = construct(loader, key_node)
            mapping[key] = _built(loader, value_node)
        return mapping
    if kind is SequenceNode:
        if node.tag != _SEQ:
            raise _Unusual
        return [_built(loader, child) for child in node.value]
    raise _Unusual
