"""The CEL rules of ``olm.constraint`` ``cel`` dependencies, evaluated offline (R-RES-11.2,
R-RES-23).

OLM compiles the rule with cel-go in an environment that declares one variable,
``properties`` (the candidate entry's properties as ``{"type", "value"}`` maps, values decoded
from JSON, so every number is a double), and one function, ``semver_compare(a, b)``. The
predicate is true only when the rule evaluates to ``true``: an evaluation error (a missing
key, an unparsable version, a type mismatch) makes it false. olmtui has no CEL library, so
this module parses the common subset into a tiny AST and evaluates it with CEL's semantics
(errors are values that ``&&``, ``||`` and the ``exists``/``all`` macros can absorb, and
``==`` between different types is false). Anything outside the subset raises
``NotEvaluated``: guessing would make a wrong claim about what OLM installs.

Catalog entries keep only the property types the resolver reads (``RESOLVER_PROPERTY_TYPES``,
see ``Bundle.properties``), so a rule over a catalog entry is only decided when each of its
loops over ``properties`` is confined to those types (``p.type == 'olm.gvk' && ...``): a
dropped property could otherwise change the answer.

A rule is text from a bundle, so it may be hostile. cel-go's parser refuses a rule
over 100,000 code points or nested deeper than 250 (parentheses, calls, lists, indexes): OLM
then cannot build the constraint and resolution stops; :func:`refusal` gives cel-go's message
for those. What cel-go accepts, olmtui parses without deep recursion (a run of ``!`` collapses
as in cel-go, ``&&``/``||`` chains become balanced trees as cel-go builds them) and evaluates
only up to a nesting depth well inside Python's recursion limit, in any thread; a deeper rule
is not evaluated (R-RES-23).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from olmtui.frozen import frozen
from olmtui.model.primitives.digits import INT64_MAX, bounded
from olmtui.model.records.catalog import RESOLVER_PROPERTY_TYPES
from olmtui.model.rules.resolution.entries import parse_tolerant


class Unsupported(Exception):
    """The rule is outside the subset olmtui evaluates (R-RES-23)."""


#: cel-go's parser defaults (``parser.NewParser``), which OLM's environment keeps
#: (operator-framework/api ``constraints.NewCelEnvironment``).
CEL_SIZE_LIMIT = 100_000
CEL_RECURSION_LIMIT = 250
#: How deep olmtui parses and evaluates a rule: each level costs a few Python frames, so
#: this stays far inside the default recursion limit of 1,000 whatever the caller's stack.
MAX_NESTING = 48


# --- the AST ---------------------------------------------------------------------------


@frozen
class Lit:
    value: Any


@frozen
class Ident:
    name: str


@frozen
class Select:
    operand: Node
    field: str


@frozen
class Index:
    operand: Node
    key: Node


@frozen
class Call:
    name: str
    target: Node | None
    args: tuple[Node, ...]


@frozen
class Macro:
    """``target.exists(var, body)``, ``all`` or ``exists_one``."""

    name: str
    target: Node
    var: str
    body: Node


@frozen
class Has:
    select: Select


@frozen
class Unary:
    op: str
    operand: Node


@frozen
class Binary:
    op: str
    left: Node
    right: Node


@frozen
class ListLit:
    items: tuple[Node, ...]


@frozen
class MapLit:
    entries: tuple[tuple[Node, Node], ...]


Node = Lit | Ident | Select | Index | Call | Macro | Has | Unary | Binary | ListLit | MapLit

# --- tokens and parser -----------------------------------------------------------------

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<float>\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)
    | (?P<int>\d+)(?![\w.])
    | (?P<str>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    | (?P<name>[A-Za-z_]\w*)
    | (?P<op>==|!=|<=|>=|&&|\|\||[-<>!()\[\]{},.:])
    )""",
    re.VERBOSE,
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "`": "`"}
_RELATIONS = ("==", "!=", "<", "<=", ">", ">=", "in")
_MACROS = ("exists", "all", "exists_one")
_KEYWORDS = {"true": True, "false": False, "null": None}


def _unquote(text: str) -> str:
    body = text[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        if body[i] == "\\":
            if body[i + 1] not in _ESCAPES:
                raise Unsupported("escape")
            out.append(_ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def _int_literal(text: str) -> int:
    """An int literal: cel-go refuses one beyond int64 (and Python's ``int()`` one of over
    4,300 digits), so olmtui does not evaluate it."""
    value = bounded(text, INT64_MAX)
    if value is None:
        raise Unsupported("int literal out of range")
    return value


_CONVERT: dict[str, Callable[[str], Any]] = {"float": float, "int": _int_literal, "str": _unquote}


def _tokens(rule: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    pos, end = 0, len(rule.rstrip())
    while pos < end:
        match = _TOKEN.match(rule, pos)
        if match is None or match.lastgroup is None:
            raise Unsupported(rule[pos:])
        kind, text = match.lastgroup, match.group(match.lastgroup)
        convert: Callable[[str], Any] = _CONVERT.get(kind, str)
        value = convert(text)
        out.append((kind, value))
        pos = match.end()
    out.append(("end", None))
    return out


class _Parser:
    """Recursive descent over CEL's grammar, restricted to the subset (no arithmetic, no
    ternary, no message literals)."""

    def __init__(self, toks: list[tuple[str, Any]]) -> None:
        self.toks = toks
        self.pos = 0
        self.depth = 0

    def peek(self) -> tuple[str, Any]:
        return self.toks[self.pos]

    def take(self, value: str | None = None) -> tuple[str, Any]:
        tok = self.toks[self.pos]
        if value is not None and (tok[0] not in ("op", "name") or tok[1] != value):
            raise Unsupported(f"expected {value}")
        self.pos += 1
        return tok

    def accept(self, value: str) -> bool:
        if self.peek()[0] in ("op", "name") and self.peek()[1] == value:
            self.pos += 1
            return True
        return False

    def parse(self) -> Node:
        node = self.expr()
        if self.peek()[0] != "end":
            raise Unsupported("trailing input")
        return node

    def expr(self) -> Node:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise Unsupported(f"nested deeper than {MAX_NESTING}")
        terms = [self.conjunction()]
        while self.accept("||"):
            terms.append(self.conjunction())
        self.depth -= 1
        return _balanced("||", terms)

    def conjunction(self) -> Node:
        terms = [self.relation()]
        while self.accept("&&"):
            terms.append(self.relation())
        return _balanced("&&", terms)

    def relation(self) -> Node:
        node = self.unary()
        while self.peek()[0] in ("op", "name") and self.peek()[1] in _RELATIONS:
            op = self.take()[1]
            node = Binary(op, node, self.unary())
        return node

    def unary(self) -> Node:
        nots = 0
        while self.accept("!"):
            nots += 1
        if nots:
            # cel-go's VisitLogicalNot: an even run of ``!`` is the operand itself, an odd
            # one a single ``!`` (so 3,000 of them parse flat, as there).
            operand = self.member(self.primary())
            return Unary("!", operand) if nots % 2 else operand
        if self.accept("-"):  # only a negative number literal
            kind, value = self.take()
            if kind not in ("int", "float"):
                raise Unsupported("negation")
            return self.member(Lit(-value))
        return self.member(self.primary())

    def member(self, node: Node) -> Node:
        while True:
            if self.accept("."):
                kind, name = self.take()
                if kind != "name":
                    raise Unsupported("field")
                node = self.call(name, node) if self.accept("(") else Select(node, name)
            elif self.accept("["):
                node = Index(node, self.expr())
                self.take("]")
            else:
                return node

    def args(self) -> tuple[Node, ...]:
        out: list[Node] = []
        while not self.accept(")"):
            if out:
                self.take(",")
            out.append(self.expr())
        return tuple(out)

    def call(self, name: str, target: Node | None) -> Node:
        args = self.args()
        if name in _MACROS and target is not None:
            if len(args) != 2 or not isinstance(args[0], Ident):
                raise Unsupported("macro")
            return Macro(name, target, args[0].name, args[1])
        if name == "has" and target is None:
            if len(args) != 1 or not isinstance(args[0], Select):
                raise Unsupported("has")
            return Has(args[0])
        return Call(name, target, args)

    def primary(self) -> Node:
        kind, value = self.take()
        if kind in ("int", "float", "str"):
            return Lit(value)
        if kind == "name":
            if value in _KEYWORDS:
                return Lit(_KEYWORDS[value])
            return self.call(value, None) if self.accept("(") else Ident(value)
        if value == "(":
            node = self.expr()
            self.take(")")
            return node
        if value == "[":
            return ListLit(self.items("]"))
        if value == "{":
            return self.map_literal()
        raise Unsupported(str(value))

    def items(self, close: str) -> tuple[Node, ...]:
        out: list[Node] = []
        while not self.accept(close):
            if out:
                self.take(",")
                if self.accept(close):
                    break
            out.append(self.expr())
        return tuple(out)

    def map_literal(self) -> MapLit:
        out: list[tuple[Node, Node]] = []
        while not self.accept("}"):
            if out:
                self.take(",")
                if self.accept("}"):
                    break
            key = self.expr()
            self.take(":")
            out.append((key, self.expr()))
        return MapLit(tuple(out))


def _balanced(op: str, terms: list[Node]) -> Node:
    """cel-go's ``logicManager.balancedTree``: a chain of ``&&`` or ``||`` as a balanced tree
    (the operators are associative, so only the depth differs from a left-deep chain)."""
    if len(terms) == 1:
        return terms[0]
    mid = (len(terms) - 1) // 2 + 1
    return Binary(op, _balanced(op, terms[:mid]), _balanced(op, terms[mid:]))


def _depth(root: Node) -> int:
    """The AST's depth, walked without recursion (a long member chain is deep)."""
    deepest = 0
    stack = [(root, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        children = (node.target, node.body) if isinstance(node, Macro) else _children(node)
        stack.extend((child, level + 1) for child in children)
    return deepest


def _bracket_depth(toks: Sequence[tuple[str, Any]]) -> int:
    """How deep the rule nests brackets around a token: each ``(`` (a group or a call's
    arguments), ``[`` (a list or an index) and ``{`` holding a token is one more nested
    ``expr`` rule in cel-go's grammar."""
    depth = deepest = 0
    for kind, value in toks:
        if kind == "op" and value in ("(", "[", "{"):
            depth += 1
        elif kind == "op" and value in (")", "]", "}"):
            depth -= 1
        else:
            deepest = max(deepest, depth)
    return deepest


def refusal(rule: str) -> str | None:
    """cel-go's compile error when its parser refuses ``rule`` by its own limits:
    over 100,000 code points, or an ``expr`` rule nested over 250 deep (a token inside 250
    brackets). OLM then cannot build the predicate (``CreateCelPredicate``). ``None`` when
    the rule is within those limits, or olmtui cannot read it (then it is not evaluated)."""
    if len(rule) > CEL_SIZE_LIMIT:
        return (
            "ERROR: <input>:-1:0: expression code point size exceeds limit: "
            f"size: {len(rule)}, limit {CEL_SIZE_LIMIT}"
        )
    if "'''" in rule or '"""' in rule:
        return None  # CEL's triple-quoted strings, which olmtui's tokens do not read
    try:
        toks = _tokens(rule)
    except Unsupported:
        return None
    if _bracket_depth(toks) + 1 > CEL_RECURSION_LIMIT:
        return f"ERROR: <input>:-1:0: expression recursion limit exceeded: {CEL_RECURSION_LIMIT}"
    return None


# --- values ------------------------------------------------------------------------------


@frozen
class CelError:
    """An evaluation error: a value in CEL, absorbed by ``&&``/``||`` when the other side
    decides the result."""

    message: str


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    return "map" if isinstance(value, dict) else "other"


def _equals(a: Any, b: Any) -> bool:
    """CEL heterogeneous equality: values of different types are unequal; numbers compare
    by value whatever their type (int and double)."""
    kind = _kind(a)
    if kind != _kind(b):
        return False
    if kind == "list":
        return len(a) == len(b) and all(_equals(x, y) for x, y in zip(a, b, strict=True))
    if kind == "map":
        return a.keys() == b.keys() and all(_equals(a[k], b[k]) for k in a)
    return bool(a == b)


def _order(a: Any, b: Any) -> int | CelError:
    kind = _kind(a)
    if kind != _kind(b) or kind not in ("number", "string", "bool"):
        return CelError("no such overload")
    return int(a > b) - int(a < b)


def _go_sprint(value: Any) -> str | None:
    """``fmt.Sprint`` of the value, for ``semver_compare``; ``None`` where Go's text can never
    be a version (maps, lists, null, floats Go prints with an exponent)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int):
        return str(value)
    if isinstance(value, float):
        if value != 0 and not 1e-4 <= abs(value) < 1e6:
            return None  # Go's %v switches to 1e+06 / 1e-05 here
        return str(int(value)) if value.is_integer() else repr(value)
    return None


def semver_compare(a: Any, b: Any) -> int | CelError:
    """OLM's ``semver_compare``: blang ``ParseTolerant`` on both texts, then ``Compare``
    (-1/0/1); an unparsable side is an evaluation error (R-RES-23)."""
    texts = (_go_sprint(a), _go_sprint(b))
    left, right = (parse_tolerant(t) if t is not None else None for t in texts)
    if left is None or right is None:
        return CelError("unable to parse to semver format")
    return (left > right) - (left < right)


def _size(value: Any) -> int | CelError:
    if isinstance(value, str | list | dict):
        return len(value)
    return CelError("no such overload")


def _string_test(test: Callable[[str, str], bool]) -> Callable[[Any, Any], bool | CelError]:
    def run(target: Any, arg: Any) -> bool | CelError:
        if isinstance(target, str) and isinstance(arg, str):
            return test(target, arg)
        return CelError("no such overload")

    return run


#: Global functions by (name, arity).
_GLOBALS: dict[tuple[str, int], Callable[..., Any]] = {
    ("semver_compare", 2): semver_compare,
    ("size", 1): _size,
}
#: Receiver-style functions by (name, arity including the receiver).
_METHODS: dict[tuple[str, int], Callable[..., Any]] = {
    ("size", 1): _size,
    ("startsWith", 2): _string_test(str.startswith),
    ("endsWith", 2): _string_test(str.endswith),
    ("contains", 2): _string_test(lambda s, t: t in s),
}

# --- evaluation --------------------------------------------------------------------------

Env = Mapping[str, Any]


def _first_error(values: Iterable[Any]) -> CelError | None:
    return next((v for v in values if isinstance(v, CelError)), None)


def _combine(left: Any, right: Any, decisive: bool) -> Any:
    """CEL's commutative ``||`` (``decisive=True``) and ``&&`` (``False``): the decisive
    value wins over an error on either side; otherwise an error stays an error."""
    if left is decisive or right is decisive:
        return decisive
    if isinstance(left, bool) and isinstance(right, bool):
        return not decisive
    return _first_error((left, right)) or CelError("no matching overload")


def _logic(node: Binary, env: Env) -> Any:
    decisive = node.op == "||"
    left = _eval(node.left, env)
    if left is decisive:
        return decisive
    return _combine(left, _eval(node.right, env), decisive)


def _in(item: Any, container: Any) -> Any:
    if isinstance(container, list | dict):
        return any(_equals(item, x) for x in container)
    return CelError("no such overload")


def _relation(node: Binary, env: Env) -> Any:
    if node.op in ("&&", "||"):
        return _logic(node, env)
    left, right = _eval(node.left, env), _eval(node.right, env)
    if (error := _first_error((left, right))) is not None:
        return error
    if node.op in ("==", "!="):
        return _equals(left, right) == (node.op == "==")
    if node.op == "in":
        return _in(left, right)
    order = _order(left, right)
    if isinstance(order, CelError):
        return order
    return {"<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0}[node.op]


def _not(node: Unary, env: Env) -> Any:
    value = _eval(node.operand, env)
    if isinstance(value, bool):
        return not value
    return value if isinstance(value, CelError) else CelError("no such overload")


def _lookup(operand: Any, key: Any) -> Any:
    if isinstance(operand, dict) and _kind(key) in ("string", "number", "bool"):
        return operand[key] if key in operand else CelError(f"no such key: {key}")
    if isinstance(operand, list) and type(key) is int:
        return operand[key] if 0 <= key < len(operand) else CelError("index out of range")
    return CelError("no such overload")


def _select(node: Select, env: Env) -> Any:
    operand = _eval(node.operand, env)
    return operand if isinstance(operand, CelError) else _lookup(operand, node.field)


def _index(node: Index, env: Env) -> Any:
    operand, key = _eval(node.operand, env), _eval(node.key, env)
    return _first_error((operand, key)) or _lookup(operand, key)


def _has(node: Has, env: Env) -> Any:
    operand = _eval(node.select.operand, env)
    if isinstance(operand, dict):
        return node.select.field in operand
    return operand if isinstance(operand, CelError) else CelError("no such overload")


def _call(node: Call, env: Env) -> Any:
    args = [_eval(a, env) for a in ((node.target,) if node.target else ()) + node.args]
    if (error := _first_error(args)) is not None:
        return error
    table = _METHODS if node.target else _GLOBALS
    return table[(node.name, len(args))](*args)


#: Where the environment keeps the loop steps left (not an identifier: no rule can name it).
_STEPS = " steps"
#: How many loop steps one evaluation may take. Loops over ``properties`` nested in each
#: other multiply (four deep over 100 properties: 100 million steps, minutes); OLM's own rules
#: take tens. Beyond it the rule is not evaluated rather than left to hang olmtui.
MAX_STEPS = 10_000


def _looped(env: Env, var: str, item: Any) -> Env:
    steps: list[int] = env[_STEPS]
    steps[0] -= 1
    if steps[0] < 0:
        raise Unsupported(f"evaluation takes more than {MAX_STEPS} loop steps")
    return {**env, var: item}


def _macro(node: Macro, env: Env) -> Any:
    """The comprehension macros as cel-go expands them: ``exists`` folds with ``||`` and
    stops at ``true``, ``all`` folds with ``&&`` and stops at ``false``."""
    target = _eval(node.target, env)
    if isinstance(target, CelError) or not isinstance(target, list | dict):
        return target if isinstance(target, CelError) else CelError("no such overload")
    results = (_eval(node.body, _looped(env, node.var, item)) for item in target)
    if node.name == "exists_one":
        values = list(results)
        error = _first_error(values) or _first_error(
            CelError("no such overload") for v in values if not isinstance(v, bool)
        )
        return error or sum(v is True for v in values) == 1
    decisive = node.name == "exists"
    acc: Any = not decisive
    for value in results:
        acc = _combine(acc, value, decisive)
        if acc is decisive:
            break
    return acc


def _list(node: ListLit, env: Env) -> Any:
    items = [_eval(i, env) for i in node.items]
    return _first_error(items) or items


def _map(node: MapLit, env: Env) -> Any:
    pairs = [(_eval(k, env), _eval(v, env)) for k, v in node.entries]
    error = _first_error(x for pair in pairs for x in pair)
    if error is None and any(_kind(k) not in ("string", "number", "bool") for k, _ in pairs):
        error = CelError("unsupported key type")
    if error is None and len(dict(pairs)) != len(pairs):
        error = CelError("repeated key")
    return error or dict(pairs)


_HANDLERS: dict[type, Callable[[Any, Env], Any]] = {
    Lit: lambda node, env: node.value,
    Ident: lambda node, env: env[node.name],
    Select: _select,
    Index: _index,
    Call: _call,
    Macro: _macro,
    Has: _has,
    Unary: _not,
    Binary: _relation,
    ListLit: _list,
    MapLit: _map,
}


def _eval(node: Node, env: Env) -> Any:
    return _HANDLERS[type(node)](node, env)


# --- checks before evaluating ------------------------------------------------------------


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Select | Unary):
        return (node.operand,)
    if isinstance(node, Index):
        return (node.operand, node.key)
    if isinstance(node, Call):
        return ((node.target,) if node.target else ()) + node.args
    if isinstance(node, Has):
        return (node.select,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, ListLit):
        return node.items
    if isinstance(node, MapLit):
        return tuple(x for pair in node.entries for x in pair)
    return ()


def _check_names(node: Node, bound: frozenset[str]) -> None:
    """Identifiers and functions must exist in OLM's environment (else cel-go refuses the
    rule at compile time, which olmtui does not reproduce)."""
    if isinstance(node, Ident) and node.name not in bound:
        raise Unsupported(f"undeclared {node.name}")
    if isinstance(node, Call):
        table = _METHODS if node.target else _GLOBALS
        if (node.name, len(node.args) + (node.target is not None)) not in table:
            raise Unsupported(f"function {node.name}")
    if isinstance(node, Macro):
        _check_names(node.target, bound)
        _check_names(node.body, bound | {node.var})
        return
    for child in _children(node):
        _check_names(child, bound)


def _is_bool(node: Node) -> bool:
    """The rule's static type must be bool (``cel expressions must have type Bool``)."""
    if isinstance(node, Lit):
        return isinstance(node.value, bool)
    return isinstance(node, Binary | Unary | Macro | Has) or (
        isinstance(node, Call) and node.name in ("startsWith", "endsWith", "contains")
    )


def _is_type_of(node: Node, var: str) -> bool:
    """``var.type`` or ``var['type']``."""
    if isinstance(node, Select):
        return node.field == "type" and node.operand == Ident(var)
    return isinstance(node, Index) and node.key == Lit("type") and node.operand == Ident(var)


def _strings(nodes: Sequence[Node]) -> tuple[str, ...] | None:
    texts = tuple(n.value for n in nodes if isinstance(n, Lit) and isinstance(n.value, str))
    return texts if len(texts) == len(nodes) else None


def _type_test(node: Binary, var: str) -> tuple[str, ...] | None:
    """The types named by ``var.type == 'T'`` / ``!=`` (either side) or
    ``var.type in ['T1', 'T2']``."""
    if node.op == "in" and _is_type_of(node.left, var) and isinstance(node.right, ListLit):
        return _strings(node.right.items)
    if node.op not in ("==", "!="):
        return None
    for a, b in ((node.left, node.right), (node.right, node.left)):
        if _is_type_of(a, var):
            return _strings((b,))
    return None


def _confined(node: Node, var: str, known: frozenset[str], falsy: bool) -> bool:
    """Whether ``node`` has a fixed value (false when ``falsy``, else true) for every
    property whose type is not in ``known``, so that dropped properties cannot matter."""
    if isinstance(node, Unary):
        return _confined(node.operand, var, known, not falsy)
    if not isinstance(node, Binary):
        return False
    if node.op in ("&&", "||"):
        parts = [_confined(x, var, known, falsy) for x in (node.left, node.right)]
        return any(parts) if (node.op == "&&") == falsy else all(parts)
    types = _type_test(node, var)
    return types is not None and known.issuperset(types) and (node.op != "!=") == falsy


def _check_confined(node: Node, known: frozenset[str]) -> None:
    """R-RES-23: over a partial property list, every loop over ``properties`` must be
    confined to the known types, and ``properties`` is used in no other way."""
    if isinstance(node, Macro) and node.target == Ident("properties"):
        if not _confined(node.body, node.var, known, node.name != "all"):
            raise Unsupported("loop over property types olmtui does not keep")
        _check_confined(node.body, known)
        return
    if node == Ident("properties"):
        raise Unsupported("properties used beyond the types olmtui keeps")
    for child in (node.target, node.body) if isinstance(node, Macro) else _children(node):
        _check_confined(child, known)


_COMPILED: dict[tuple[str, bool], Node | Unsupported] = {}


def compile_rule(rule: str, complete: bool) -> Node:
    """The checked AST of ``rule``; raises ``Unsupported``. ``complete`` says whether the
    property list is the entry's whole list (else only ``RESOLVER_PROPERTY_TYPES``)."""
    key = (rule, complete)
    if key not in _COMPILED:
        try:
            _COMPILED[key] = _compile(rule, complete)
        except Unsupported as exc:
            _COMPILED[key] = exc  # a hostile rule is read once, not once per candidate
    found = _COMPILED[key]
    if isinstance(found, Unsupported):
        raise Unsupported(*found.args)
    return found


def _compile(rule: str, complete: bool) -> Node:
    if (refused := refusal(rule)) is not None:
        raise Unsupported(refused)
    node = _Parser(_tokens(rule)).parse()
    if _depth(node) > MAX_NESTING:
        raise Unsupported(f"nested deeper than {MAX_NESTING}")
    _check_names(node, frozenset(("properties",)))
    if not _is_bool(node):
        raise Unsupported("not a bool expression")
    if not complete:
        _check_confined(node, RESOLVER_PROPERTY_TYPES)
    return node


def _as_cel_scalar(value: Any) -> Any:
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _as_cel(value: Any) -> Any:
    """Go's ``json.Unmarshal`` into ``interface{}``: every JSON number is a double. Copied
    without recursion: a property value may nest as deep as the JSON reader allowed."""
    if not isinstance(value, list | dict):
        return _as_cel_scalar(value)
    root: list[Any] | dict[str, Any] = [] if isinstance(value, list) else {}
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        for key, item in enumerate(source) if isinstance(source, list) else source.items():
            copied: Any = _as_cel_scalar(item)
            if isinstance(item, list | dict):
                copied = [] if isinstance(item, list) else {}
                stack.append((item, copied))
            if isinstance(target, list):
                target.append(copied)
            else:
                target[key] = copied
    return root


def cel_properties(
    texts: Sequence[tuple[str, str]], values: Sequence[tuple[str, Any]]
) -> list[dict[str, Any]]:
    """The ``properties`` variable as OLM builds it (``celPredicate.Test``): one
    ``{"type", "value"}`` map per property; a value that is not JSON leaves an empty map."""
    out: list[dict[str, Any]] = []
    for (kind, text), (_, value) in zip(texts, values, strict=True):
        if value is None and text.strip() != "null":
            out.append({})
        else:
            out.append({"type": kind, "value": _as_cel(value)})
    return out


def evaluate(rule: str, properties: list[dict[str, Any]], complete: bool = True) -> bool:
    """R-RES-11.2: the rule over one candidate's properties; an evaluation error or a
    non-bool result is false, as in OLM. Raises ``Unsupported`` outside the subset."""
    node = compile_rule(rule, complete)
    try:
        result = _eval(node, {"properties": properties, _STEPS: [MAX_STEPS]})
    except RecursionError:
        # The rule is shallow (MAX_NESTING) but two property values compared with each
        # other may nest as deep as their JSON did: olmtui does not decide that (R-RES-23).
        raise Unsupported("values nested too deep to compare") from None
    return result is True
