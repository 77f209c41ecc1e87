"""A small query language over frontmatter and typed edges (`curator query`, and search's filters).

    type:concept AND broader+:[[SOLID]] sort:title
    related:[[Caching]] OR (tag:cache AND NOT path:archive/)
    edges:related AND a.scheme!=b.scheme

A term is `field:value`, `field:>=value` (as search writes it) or `field=value`, `field!=value`,
`field<value`, `field<=value`, `field>value`, `field>=value`. Values are bare words, "quoted
text" or [[links]]. Fields: `type`, `tag`, `path` (a folder prefix), `title` (words in it),
`scheme` (the `scheme` key, else the top folder), any frontmatter key, and every kind of typed
edge: `broader:[[X]]` (an edge to X), `broader+:[[X]]` (a chain of them: everything under X),
`related:*` (any such edge; for a field that is no edge, `field:*` means the page sets it).
`narrower` is the inverse of `broader`, `related` goes both ways. Terms combine with AND (also
implied by a space), OR and NOT, in that order of binding, and parentheses. A word that is not a
term must appear in the title. `sort:field` (or `sort:-field`, descending) orders the result, by
title otherwise.

`edges:KIND` asks for the edges of a kind instead of pages: `a.field` is a field of the page the
edge leaves, `b.field` of the page it reaches, and a value may name the other one's field
(`a.scheme!=b.scheme`). A symmetric edge is one result, whichever page declared it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from curator.core.common.errors import QueryError
from curator.core.read.page import tags_of
from curator.core.read.relations import INVERSE, SYMMETRIC, Relations, scheme_of
from curator.core.read.resolve import fold
from curator.core.read.vault import Vault

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<paren>[()])
      | (?P<term>(?P<name>[A-Za-z_][\w.-]*\+?)(?P<op>:(?:>=|<=|>|<|!=)?|!=|>=|<=|=|>|<)
            (?P<value>"[^"]*"|\[\[[^\]]*\]\]|[^\s()]+))
      | (?P<word>"[^"]*"|[^\s()]+)
    )""",
    re.VERBOSE,
)
_OPERATORS = ("AND", "OR", "NOT")
KNOWN_RELATIONS = frozenset({*INVERSE, *SYMMETRIC})


@dataclass(frozen=True)
class Term:
    field: str
    op: str  # "=", "!=", "<", "<=", ">", ">="
    value: str


@dataclass(frozen=True)
class Node:
    """An expression: AND / OR over `parts`, NOT of its one part, or a single term."""

    kind: str  # "and", "or", "not", "term", "word"
    parts: tuple[Node, ...] = ()
    term: Term | None = None


@dataclass
class Query:
    expression: Node | None
    sort: tuple[str, bool] | None = None  # (field, descending)
    edges: str | None = None  # the edge kind asked for, in edge mode
    fields: list[str] = field(default_factory=list)  # the fields the query names, to show them


@dataclass
class Result:
    pages: list[str]
    edges: list[tuple[str, str]]
    kind: str | None  # the edge kind, in edge mode
    fields: list[str]


MAX_DEPTH = 100  # parentheses and NOTs one inside the other, far more than anyone writes


def parse(text: str) -> Query:
    """The query `text` as a tree; QueryError (one line) on what does not parse."""
    tokens: list[tuple[str, Any]] = []
    position = 0
    text = text.strip()
    while position < len(text):
        m = _TOKEN.match(text, position)
        if m is None or m.end() == position:
            raise QueryError(f"cannot read the query at {text[position:]!r}")
        position = m.end()
        if m.group("paren"):
            tokens.append((m.group("paren"), None))
        elif m.group("term"):
            op = m.group("op").removeprefix(":") or "="
            tokens.append(("term", Term(m.group("name").casefold(), op, _unquote(m.group("value")))))
        elif m.group("word") in _OPERATORS:
            tokens.append((m.group("word"), None))
        elif m.group("word"):
            tokens.append(("word", Term("title", "~", _unquote(m.group("word")))))
    query = Query(None)
    kept: list[tuple[str, Any]] = []
    after_directive = False
    for kind, term in tokens:  # directives are not part of the expression, nor is an AND joining one
        if kind == "term" and term.field in ("sort", "edges"):
            if term.field == "sort":
                query.sort = (term.value.lstrip("-").casefold(), term.value.startswith("-"))
            else:
                query.edges = term.value.casefold()
            if kept and kept[-1][0] == "AND":
                kept.pop()
            else:
                after_directive = True
            continue
        if after_directive and kind == "AND":
            after_directive = False
            continue
        after_directive = False
        kept.append((kind, term))
        if kind == "term" and term.field not in query.fields:
            query.fields.append(term.field)
    parser = _Parser(kept)
    query.expression = parser.expression() if kept else None
    if parser.at < len(kept):
        raise QueryError(f"unexpected {kept[parser.at][0]!r} in the query")
    return query


class _Parser:
    """Recursive descent: or := and (OR and)*; and := not (AND? not)*; not := NOT not | atom."""

    def __init__(self, tokens: list[tuple[str, Any]]) -> None:
        self.tokens, self.at, self.depth = tokens, 0, 0

    def _deeper(self, by: int) -> None:
        """Count a NOT or a parenthesis entered (1) or left (-1): a query nested past MAX_DEPTH
        would run out of Python's stack here or where it is compiled."""
        self.depth += by
        if self.depth > MAX_DEPTH:
            raise QueryError(f"the query nests parentheses or NOTs more than {MAX_DEPTH} deep")

    def _peek(self) -> str | None:
        return self.tokens[self.at][0] if self.at < len(self.tokens) else None

    def expression(self) -> Node:
        parts = [self._and()]
        while self._peek() == "OR":
            self.at += 1
            parts.append(self._and())
        return parts[0] if len(parts) == 1 else Node("or", tuple(parts))

    def _and(self) -> Node:
        parts = [self._not()]
        while self._peek() not in (None, "OR", ")"):
            if self._peek() == "AND":
                self.at += 1
            parts.append(self._not())
        return parts[0] if len(parts) == 1 else Node("and", tuple(parts))

    def _not(self) -> Node:
        if self._peek() == "NOT":
            self.at += 1
            self._deeper(1)
            node = Node("not", (self._not(),))
            self._deeper(-1)
            return node
        return self._atom()

    def _atom(self) -> Node:
        kind = self._peek()
        if kind is None:
            raise QueryError("the query ends where a term was expected")
        if kind == "(":
            self.at += 1
            self._deeper(1)
            inner = self.expression()
            if self._peek() != ")":
                raise QueryError("a parenthesis is not closed")
            self.at += 1
            self._deeper(-1)
            return inner
        if kind in ("term", "word"):
            term = self.tokens[self.at][1]
            self.at += 1
            return Node("term", term=term)
        raise QueryError(f"{kind!r} where a term was expected")


def _unquote(value: str) -> str:
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value


def run(vault: Vault, text: str) -> Result:
    """The pages (or, with `edges:`, the edges) that match the query, sorted."""
    query = parse(text)
    context = _Context(vault)
    if query.edges is not None:
        return _run_edges(context, query)
    test = context.compile(query.expression) if query.expression is not None else (lambda _: True)
    pages = [path for path in vault.pages if test(path)]
    pages.sort(key=lambda path: (fold(vault.pages[path].title), path))
    if query.sort and query.sort[0] != "title":
        pages = _sorted_by(pages, lambda path: context.value(path, query.sort[0]), query.sort[1])  # type: ignore[index]
    elif query.sort and query.sort[1]:
        pages.reverse()
    named = [*query.fields, *([query.sort[0]] if query.sort else [])]
    shown = [name for name in dict.fromkeys(named) if name not in ("title", "path")]  # always shown
    return Result(pages, [], None, shown)


def _run_edges(context: _Context, query: Query) -> Result:
    kind = query.edges or ""
    relations = Relations.of(context.vault)
    edges = []
    for source, target in relations.edges(kind):
        if query.expression is None or context.compile_edge(query.expression)(source, target):
            edges.append((source, target))
    if query.sort:
        side = 1 if query.sort[0].startswith("b.") else 0
        name = query.sort[0].removeprefix("a.").removeprefix("b.")
        edges = _sorted_by(edges, lambda edge: context.value(edge[side], name), query.sort[1])
    return Result([], edges, kind, query.fields)


def _sorted_by(items: list[Any], value: Callable[[Any], Any], descending: bool) -> list[Any]:
    """`items` by a field's value, numbers before text; those without it last either way; ties
    keep their order (by title)."""
    present: list[tuple[tuple[int, float, str], Any]] = []
    missing: list[Any] = []
    for item in items:
        key = _sortable(value(item))
        if key is None:
            missing.append(item)
        else:
            present.append((key, item))
    present.sort(key=lambda pair: pair[0], reverse=descending)  # stable, reversed or not
    return [item for _, item in present] + missing


def _sortable(value: Any) -> tuple[int, float, str] | None:
    """Numbers first (by value), then text; None for a page without the field."""
    if isinstance(value, list):
        value = value[0] if value else None
    if value is None or value == "":
        return None
    try:
        return (0, float(value), "")
    except (TypeError, ValueError):
        return (1, 0.0, fold(str(value)))


class _Context:
    """What evaluating terms needs from the vault, worked out once a query."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault

    def value(self, path: str, name: str) -> Any:
        return page_field(self.vault, path, name)

    def compile(self, node: Node) -> Callable[[str], bool]:
        """A test of one page."""
        if node.kind == "and":
            tests = [self.compile(part) for part in node.parts]
            return lambda path: all(test(path) for test in tests)
        if node.kind == "or":
            tests = [self.compile(part) for part in node.parts]
            return lambda path: any(test(path) for test in tests)
        if node.kind == "not":
            test = self.compile(node.parts[0])
            return lambda path: not test(path)
        assert node.term is not None
        return self._term(node.term)

    def compile_edge(self, node: Node) -> Callable[[str, str], bool]:
        """A test of one edge: `a.` names the page it leaves, `b.` the page it reaches."""
        if node.kind in ("and", "or"):
            tests = [self.compile_edge(part) for part in node.parts]
            combine = all if node.kind == "and" else any
            return lambda a, b: combine(test(a, b) for test in tests)
        if node.kind == "not":
            test = self.compile_edge(node.parts[0])
            return lambda a, b: not test(a, b)
        term = node.term
        assert term is not None
        side = 1 if term.field.startswith("b.") else 0
        name = term.field.removeprefix("a.").removeprefix("b.")
        if term.value.startswith(("a.", "b.")):  # compared with the other page's field
            other_side = 1 if term.value.startswith("b.") else 0
            other = term.value[2:]
            return lambda a, b: _compare(
                self.value((a, b)[side], name), term.op, _text(self.value((a, b)[other_side], other))
            )
        page_test = self._term(Term(name, term.op, term.value))
        return lambda a, b: page_test((a, b)[side])

    def _term(self, term: Term) -> Callable[[str], bool]:
        name, op, value = term.field, term.op, term.value
        if name.startswith(("a.", "b.")):
            raise QueryError(f"{name}: a. and b. name the ends of an edge; ask for edges with edges:KIND")
        if op == "~":  # a free word: in the title
            word = fold(value)
            return lambda path: word in fold(self.vault.pages[path].title)
        transitive = name.endswith("+")
        kind = name.removesuffix("+")
        if value == "*" and not transitive and kind not in KNOWN_RELATIONS and not self._is_relation(kind):
            return _negate(op, lambda path: self.value(path, name) not in (None, "", []))  # the field is set
        if transitive or value.startswith("[[") or value == "*" or kind in KNOWN_RELATIONS:
            return self._relation(kind, transitive, op, value)
        if name == "path":
            prefix = fold(value).lstrip("/")
            return _negate(op, lambda path: fold(path).startswith(prefix))
        if name in ("tag", "tags"):
            tag = fold(value.lstrip("#"))
            return _negate(op, lambda path: tag in _tags(self.vault, path))
        if name == "title" and op in ("=", "!="):
            words = fold(value)
            return _negate(op, lambda path: words in fold(self.vault.pages[path].title))
        return lambda path: _compare(self.value(path, name), op, value)

    def _relation(self, kind: str, transitive: bool, op: str, value: str) -> Callable[[str], bool]:
        if op not in ("=", "!="):
            raise QueryError(f"{kind}: an edge is there or not; use {kind}:[[Page]] or {kind}!=[[Page]]")
        relations = Relations.of(self.vault)  # made once a load
        if value == "*":
            return _negate(op, lambda path: bool(relations.targets(kind, path)))
        target = self._page(value)
        if target is None:
            raise QueryError(f"{kind}:{value}: no page is named {value.strip('[]')!r}")
        if transitive:
            under = relations.reaching(kind, target)
            return _negate(op, lambda path: path in under)
        return _negate(op, lambda path: target in relations.targets(kind, path))

    def _is_relation(self, kind: str) -> bool:
        """Whether some page has a typed edge of this kind."""
        return any(rl.link.key == kind for rl in self.vault.links)

    def _page(self, value: str) -> str | None:
        """The page a [[link]] or a name in a query means (as a link written at the root would)."""
        name = value[2:-2] if value.startswith("[[") and value.endswith("]]") else value
        name = name.split("|", 1)[0].split("#", 1)[0].strip()
        found = self.vault.resolver.resolve("", name)
        return found.path if found.kind == "page" else None


def page_field(vault: Vault, path: str, name: str) -> Any:
    """A page's value of a field: `scheme`, `title`, `path`, `folder`, else its frontmatter's."""
    if name == "scheme":
        return scheme_of(vault, path)
    if name == "title":
        return vault.pages[path].title
    if name == "path":
        return path
    if name == "folder":
        return path.rsplit("/", 1)[0] if "/" in path else ""
    return vault.pages[path].frontmatter.get(name)


def page_test(vault: Vault, terms: tuple[Term, ...]) -> Callable[[str], bool]:
    """A test of one page against all of `terms` (search's filters)."""
    context = _Context(vault)
    tests = [context.compile(Node("term", term=term)) for term in terms]
    return lambda path: all(test(path) for test in tests)


def field_value(vault: Vault, path: str, name: str) -> Any:
    """A page's value of a field a query names (for showing it): frontmatter, or scheme, title,
    path, folder; for a typed edge, the titles of the pages it leads to."""
    kind = name.removesuffix("+")
    if kind in KNOWN_RELATIONS or any(link.key == kind for link in vault.pages[path].links):
        relations = Relations.of(vault)  # made once a load
        return sorted(vault.pages[t].title for t in relations.targets(kind, path))
    value = page_field(vault, path, name)
    return value if isinstance(value, (str, int, float, bool, list)) or value is None else str(value)


def _negate(op: str, test: Callable[[str], bool]) -> Callable[[str], bool]:
    if op == "=":
        return test
    if op == "!=":
        return lambda path: not test(path)
    raise QueryError(f"'{op}' compares values; this field takes = or !=")


def _tags(vault: Vault, path: str) -> set[str]:
    return {fold(str(t).lstrip("#")) for t in tags_of(vault.pages[path].frontmatter)}


def _text(value: Any) -> str:
    if isinstance(value, list):
        return str(value[0]) if value else ""
    return "" if value is None else str(value)


def _compare(have: Any, op: str, want: str) -> bool:
    """A frontmatter value against a query value: as numbers where both are, else as folded text;
    a list matches when an item does (`!=`: when none does)."""
    if op == "!=":
        return not _compare(have, "=", want)
    if isinstance(have, list):
        return any(_compare(item, op, want) for item in have)
    if have is None:
        return False
    try:
        left, right = float(have), float(want)
    except (TypeError, ValueError):
        return _ordered(fold(str(have)), op, fold(want))
    return _ordered(left, op, right)


def _ordered(left: Any, op: str, right: Any) -> bool:
    if op == "=":
        return bool(left == right)
    if op == "<":
        return bool(left < right)
    if op == "<=":
        return bool(left <= right)
    if op == ">":
        return bool(left > right)
    return bool(left >= right)
