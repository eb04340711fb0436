"""``plain_loader``: the faster loader gives what ``CSafeLoader`` gives, value for value and
error for error, over the repository's YAML, hand-picked oddities and generated documents."""

from __future__ import annotations

import math
from typing import Any

import pytest
import yaml
from data_paths import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from olmtui.sources.snapshots.plain_loader import PlainLoader

SAFE: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: The repository's YAML test data, capped so that the test stays cheap.
CORPUS = sorted(p for p in DATA.rglob("*.yaml") if p.stat().st_size < 256 * 1024)[:400]

ODD_DOCUMENTS = [
    "a: 1\nb: [1, 2, {c: d}]\n",
    "a: &x [1, 2]\nb: *x\n",  # an alias: one list for both
    "a: &x {k: v}\nb:\n  <<: *x\n  j: w\n",  # a merge key
    "a:\n  <<: {k: v}\n  j: w\n",  # a merge key without alias
    "a: &x [*x]\n",  # a recursive alias
    "=: 1\n",  # a value key
    "a: =\n",
    "a: !!set {x, y}\n",
    "a: !!omap [x: 1, y: 2]\n",
    "a: !!pairs [x: 1]\n",
    "a: !!binary aGVsbG8=\n",
    "a: !!binary '!!'\n",
    "a: !custom x\n",
    "a: !!str 1\n",
    "a: !!int '12'\n",
    "a: !!float 1\n",
    "a: !!map {b: 1}\n",
    "a: !!seq [1]\n",
    "a: !!str {b: 1}\n",
    "? [a, b]\n: c\n",  # a sequence as a key: unhashable
    "? {a: b}\n: c\n",
    "1: a\n2.5: b\ntrue: c\n~: d\n2021-01-01: e\n",
    "a: 2021-13-45\n",  # an impossible date
    "a: 2021-01-01T10:00:00+02:00\nb: 2021-01-01 10:00:00.5\n",
    "a: " + "9" * 5000 + "\n",  # an integer past Python's digit limit
    "a: 0x1f\nb: 0o17\nc: 0b101\nd: 1_000\ne: 12:30\nf: 010\ng: -0\n",
    "a: .inf\nb: -.Inf\nc: .nan\nd: 1e5\ne: 1:30.5\n",
    "a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: ~\ng: null\nh: NULL\n",
    "a: 'quoted 1'\nb: \"2\"\nc: |\n  block\nd: >\n  folded\n",
    "a: b\na: c\n",  # a duplicate key: the last wins
    "- 1\n- - 2\n  - [3, [4, {5: 6}]]\n",
    "plain text\n",
    "",
    "~\n",
    "a: [1, 2\n",  # a syntax error
    "a: *nowhere\n",  # an undefined alias
    "a: b: c\n",
    "&a a: &b b\n*a : *b\n",  # aliases as keys
    "a: &x 1\nb: *x\n",  # an alias of a scalar
    "text with & and * but no alias: a&b*c\n",
    "[" * 60 + "]" * 60 + "\n",
]


def loaded(text: str | bytes, loader: type) -> tuple[str, Any]:
    """What loading gives: ``("value", v)`` or ``("error", type and message)``."""
    try:
        return "value", yaml.load(text, Loader=loader)
    except Exception as exc:  # the error is what is compared
        return "error", (type(exc).__name__, str(exc))


def same(a: Any, b: Any, seen: set[tuple[int, int]] | None = None) -> bool:
    """Equal values, NaN included, with the same types all the way down (a recursive value
    compared once)."""
    seen = set() if seen is None else seen
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict | list):
        if (id(a), id(b)) in seen:
            return True
        seen.add((id(a), id(b)))
    if isinstance(a, dict):
        return list(a) == list(b) and all(
            same(k, j, seen) and same(a[k], b[j], seen) for k, j in zip(a, b, strict=True)
        )
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y, seen) for x, y in zip(a, b, strict=True))
    if isinstance(a, set):
        return a == b
    return bool(a == b)


def assert_same(text: str | bytes) -> None:
    (how, safe), (plain_how, plain) = loaded(text, SAFE), loaded(text, PlainLoader)
    assert how == plain_how, text
    if how == "error":
        assert safe == plain, text
    else:
        assert same(safe, plain), text


@pytest.mark.parametrize("text", ODD_DOCUMENTS)
def test_odd_documents_load_as_the_safe_loader_loads_them(text: str) -> None:
    assert_same(text)
    assert_same(text.encode())


def test_the_repositorys_yaml_loads_as_the_safe_loader_loads_it() -> None:
    assert CORPUS
    for path in CORPUS:
        data = path.read_bytes()
        for chunk in data.split(b"\n---\n"):
            assert_same(chunk)


def test_an_alias_keeps_one_value_for_both_places() -> None:
    value = yaml.load("a: &x [1]\nb: *x\n", Loader=PlainLoader)
    assert value["a"] is value["b"]


_SCALARS = st.one_of(
    st.sampled_from(
        [
            *("1", "01", "0x1", "1.5", ".inf", "yes", "no", "~", "null", "2021-01-01", "="),
            *("<<", "2021-02-30", "a: b", "'q'", '"d"', "-", "?", "!!str 1", "&a x", "*a"),
            *("", "x #c"),
        ]
    ),
    st.text(alphabet="ab01:-_. '\"#&*!=<", max_size=8),
)


def _documents() -> st.SearchStrategy[str]:
    """Small block documents of mappings and sequences over tricky scalars."""

    def render(value: Any, indent: int) -> str:
        pad = " " * indent
        if isinstance(value, dict):
            return (
                "".join(
                    f"{pad}{k}:\n{render(v, indent + 2)}"
                    if isinstance(v, dict | list)
                    else f"{pad}{k}: {v}\n"
                    for k, v in value.items()
                )
                or f"{pad}{{}}\n"
            )
        if isinstance(value, list):
            return (
                "".join(
                    f"{pad}-\n{render(v, indent + 2)}"
                    if isinstance(v, dict | list)
                    else f"{pad}- {v}\n"
                    for v in value
                )
                or f"{pad}[]\n"
            )
        return f"{pad}{value}\n"

    tree = st.recursive(
        _SCALARS,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(_SCALARS.filter(lambda k: k != ""), children, max_size=3),
        ),
        max_leaves=12,
    )
    return tree.map(lambda t: render(t, 0))


@settings(max_examples=300, deadline=None)
@given(_documents())
def test_generated_documents_load_as_the_safe_loader_loads_them(text: str) -> None:
    assert_same(text)
