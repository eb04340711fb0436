"""Object keys by a name they mention (a namespace a group lists, reaches or names in its
status), holding a name's lone key as itself rather than in a set of one.

Most names are mentioned by one group: a set of one costs about 220 bytes, which a snapshot
of 400,000 groups pays once per group and index (``check`` stays under 1 GB on any
input of 100 MB or less). A second key turns the entry into a set.
"""

from __future__ import annotations

from olmtui.model.incremental.stages import NSKey

_NO_KEYS: frozenset[NSKey] = frozenset()


class KeysByName:
    """name -> the keys that mention it."""

    def __init__(self) -> None:
        self._keys: dict[str, NSKey | set[NSKey]] = {}

    def get(self, name: str) -> frozenset[NSKey] | set[NSKey]:
        """The keys mentioning ``name`` (never to be changed by the caller)."""
        held = self._keys.get(name)
        if held is None:
            return _NO_KEYS
        return held if isinstance(held, set) else frozenset((held,))

    def add(self, name: str, key: NSKey) -> None:
        held = self._keys.get(name)
        if held is None:
            self._keys[name] = key
        elif isinstance(held, set):
            held.add(key)
        elif held != key:
            self._keys[name] = {held, key}

    def discard(self, name: str, key: NSKey) -> None:
        held = self._keys.get(name)
        if isinstance(held, set):
            held.discard(key)
            if not held:
                del self._keys[name]
        elif held == key:
            del self._keys[name]
