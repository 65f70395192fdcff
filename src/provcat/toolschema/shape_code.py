"""Python source written per key shape and target: a shape's program (``plan._Leaf``,
``plan._Object``, or a nullable union the target merges) as one straight-line function,
compiled once per plan and shape.

The rewrite walk calls the function instead of interpreting the program's lists: the keys
arrive in a known order, so the checks, reports, records and the output's key order are spelled
out for that shape, with the target's rules and record values bound as constants. A function
gives exactly what the interpreted program gives (same output, same records in the same order;
of the rule codes fired, it notes in ``fired`` those a later check reads) or None, having
changed nothing, when the subschema's values fail the shape's checks (the
caller then takes the general walk). Its arguments are ``(run, s, base, key, depth, level)``:
the subschema's path is ``base`` (``key`` None) or ``base`` joined with ``key`` (a property
name or a list index), made only when a record needs it. The caller has checked that the run
takes one walk and that ``level`` is within ``MAX_NESTING``.

A shape is written only once the walk has met it ``_Plan.code_after`` times (writing and
compiling a function costs about what it saves over 250 subschemas; the parser's share of it
grows with the source, so rare branches call helpers); the source holds only names the writer
chose and ``repr`` literals of keys, codes and wording, so no input text is ever read as
code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from provcat.toolschema.core import MAX_NESTING
from provcat.toolschema.plan import (
    _DROPPED,
    _LIST,
    _ONE,
    _RANK,
    _Leaf,
    _Object,
    _Plan,
    _Reports,
    _segment,
)
from provcat.toolschema.values import (
    _ATOMS,
    _NO_VALUES,
    _STRINGS,
    _as_list,
    _Bail,
    _clone_within,
    _js,
)

ShapeCode = Callable[
    [Any, dict[str, Any], str, "str | int | None", int, int], "dict[str, Any] | None"
]

_CODES_MAX = 1024
# the keywords a leaf's function checks (and reads) before anything else
_CHECKED = frozenset({"type", "enum", "format"})


def _segment_of(name: str) -> str:
    """The source of the path segment of key ``name``: ``core.new_segment``'s first case (an
    ASCII identifier) spelled out, so a new property name costs no call; any other key by it."""
    return (
        f"('.' + {name} if {name}.__class__ is str and {name}.isascii() "
        f"and {name}.isidentifier() else SEGMENT({name}))"
    )


# the subschema's path, made where a record needs it
_PATH = f"(base if key is None else base + {_segment_of('key')})"
_USES_PATH = re.compile(r"\bpath\b")


def _copied(value: Any, room: int) -> Any:
    """``value`` as the walk copies a keyword it keeps: a scalar as it is, anything else
    within ``room`` levels of nesting (``values._clone_within``)."""
    return value if value.__class__ in _ATOMS else _clone_within(value, room)


# below this size an int converts to float without overflow (``float(value).is_integer()``
# is then true)
_FLOAT_INTS = 2**1000


def _int64(run: Any, value: Any, key: str) -> Any:
    """``value`` of int64 keyword ``key`` as ``NodeRules.finish_node`` writes it: a number as
    a decimal string (counted, the keyword noted), anything else as it is."""
    if value.__class__ is int and -_FLOAT_INTS < value < _FLOAT_INTS:
        text = str(value)  # a whole number ``float`` holds: what the line below gives
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        text = str(int(value)) if float(value).is_integer() else str(value)
    else:
        return value
    run.int64_values += 1
    seen = run.int64_seen
    if seen.__class__ is not set:
        seen = run.int64_seen = set()
    seen.add(key)
    return text


class _Source:
    """The lines of one function being written and the constants it reads."""

    def __init__(self, plan: _Plan) -> None:
        self.lines: list[str] = []
        # the rule codes some check reads from ``RunState.fired`` (the root-type rules', whose
        # actions apply where one fired, and those a tool-name rule skips on): a function notes
        # only these, the others no check after the walk asks about
        read = {rule.code for rule, _ in plan.root_type_rules}
        for *_, skip_if in plan.name_rules:
            read |= skip_if
        self.read = frozenset(read)
        self.names: dict[str, Any] = {
            "ATOMS": _ATOMS,
            "STRINGS": _STRINGS,
            "BAIL": _Bail,
            "CLONE": _clone_within,
            "COPY": _copied,
            "INT64": _int64,
            "JS": _js,
            "AS_LIST": _as_list,
            "SEGMENT": _segment,
            "MAX": MAX_NESTING,
        }
        self.ids: dict[int, str] = {}

    def const(self, value: Any) -> str:
        """The name the function reads ``value`` by (the same object, shared)."""
        if value is None or value.__class__ in (str, int, bool):
            return repr(value)
        name = self.ids.get(id(value))
        if name is None:
            name = self.ids[id(value)] = f"K{len(self.ids)}"
            self.names[name] = value
        return name

    def add(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def compiled(self) -> ShapeCode:
        lines = self.lines
        made = f"    path = {_PATH}"
        if made in lines and not any(_USES_PATH.search(x) for x in lines if x != made):
            lines = [x for x in lines if x != made]  # no record and no child needs the path
        text = "def shape(self, s, base, key, depth, level):\n" + "\n".join(lines) + "\n"
        scope = dict(self.names)
        exec(compile(text, "<provcat shape>", "exec"), scope)
        code: ShapeCode = scope["shape"]
        return code


def _diagnostic(
    src: _Source, indent: int, head: tuple[Any, ...], where: str, values: str, always: bool
) -> None:
    """What ``RunState.fire`` appends for a rule head ``(rank, code, supported, rule)``
    (``always``: appended whatever the run keeps, as ``report_shape`` does for keywords)."""
    rank, code, supported, rule = head
    line = (
        f"self.diagnostics.append(({rank}, {where}, {code!r}, {supported}, "
        f"({src.const(rule)}, {values})))"
    )
    if always or rank or not supported:
        src.add(indent, line)
    else:  # an error the compile resolves: kept only when the run keeps them
        src.add(indent, "if self.keep_resolved:")
        src.add(indent + 1, line)
    if code in src.read:
        src.add(indent, f"self.fired.add({code!r})")


def _reports(src: _Source, plan: _Plan, keys: tuple[str, ...], found: _Reports) -> None:
    """``NodeReports.report_shape`` for ``found`` (the shape's ``_Reports``), spelled out."""
    for segment, values, heads in found.keywords:
        for head in heads:
            _diagnostic(src, 1, head, f"path + {segment!r}", src.const(values), True)
    for rank, code, supported, rule, values in found.constraints:
        head = (rank, code, supported, rule)
        _diagnostic(src, 1, head, "path", src.const(values), False)
    if not found.values:
        return
    # ``NodeReports.report_values``: the format, then ``minItems``
    if plan.format_keep and "format" in keys:
        src.add(1, "f = s['format']")
        src.add(1, "if isinstance(f, str):")
        for rule, allowed in plan.format_keep:
            src.add(2, f"if f not in {src.const(allowed)}:")
            src.add(
                3, f"self.fire({src.const(rule)}, path + '.format', format=f, keyword='format')"
            )
    if plan.min_items and "minItems" in keys:
        src.add(1, "n = s['minItems']")
        src.add(1, f"for rule, trig in {src.const(plan.min_items)}:")
        src.add(2, "if n not in trig['values']:")
        src.add(3, "self.fire(rule, path + '.minItems', value=JS(n), keyword='minItems')")


def leaf_code(plan: _Plan, keys: tuple[str, ...], leaf: _Leaf) -> ShapeCode | None:
    """The function of a leaf shape: ``RewriteWalk.node``'s checks for it, then
    ``RewriteWalk.leaf`` (or the plain copy); None when no subschema of the shape can pass."""
    if leaf.format and plan.format_drop and not plan.kept_formats:
        return None  # every format is dropped: the general walk writes each such subschema
    src = _Source(plan)
    local = {k: f"v{i}" for i, k in enumerate(keys)}
    if leaf.typed:
        _typed(src, plan, leaf, local)
    if leaf.plain:  # scalars only, copied: no record, so no path
        names = [local[k] for k in leaf.keys if k != "type"]
        if names:
            by_name = {v: k for k, v in local.items()}
            src.add(1, f"{', '.join(names)} = " + ", ".join(f"s[{by_name[v]!r}]" for v in names))
            src.add(1, "if " + " or ".join(f"{v}.__class__ not in ATOMS" for v in names) + ":")
            src.add(2, "return None")
        _depth(src, plan, 1)
        if leaf.upper:
            src.add(1, "self.type_names += 1")
        items = ", ".join(f"{k!r}: {local[k]}" for k in leaf.keys)
        src.add(1, f"return {{{items}}}")
        return src.compiled()
    if leaf.enum:
        src.add(1, f"e = {local['enum']} = s['enum']")
        src.add(1, "if e.__class__ is not list or not STRINGS.issuperset(map(type, e)):")
        src.add(2, "return None")
    if leaf.format:
        check = "fm.__class__ is not str"
        if plan.format_drop:
            check += f" or fm not in {src.const(plan.kept_formats)}"
        src.add(1, f"fm = {local['format']} = s['format']")
        src.add(1, f"if {check}:")
        src.add(2, "return None")
    _depth(src, plan, 1)
    src.add(1, f"path = {_PATH}")
    if leaf.report is not None:
        _reports(src, plan, keys, leaf.report)
    walked = leaf.walked
    for key, segment, kind, rules in leaf.events:
        v = local[key]
        src.add(1, f"{v} = s[{key!r}]")
        if kind == _ONE:  # ``RewriteWalk.walk_one``, its function's call inline
            src.names["CODES"] = plan.codes
            src.add(
                1, f"c = CODES.get(tuple({v})) if {v}.__class__ is dict and level < MAX else None"
            )
            src.add(
                1,
                f"if c is None or (w := c(self, {v}, path, {key!r}, depth + 1, level + 1)) is None:",
            )
            src.add(2, f"w = self.walk_one({v}, path, {key!r}, depth + 1, level + 1)")
            src.add(1, f"{v} = w")
            continue
        if kind == _LIST:  # ``RewriteWalk.walk_list``, its items' functions called inline
            src.names["CODES"] = plan.codes
            src.add(1, f"where = path + {segment!r}")
            src.add(1, f"if {v}.__class__ is list and level + 2 <= MAX:")
            src.add(2, "w = []")
            src.add(2, f"for i, x in enumerate({v}):")
            src.add(3, "c = CODES.get(tuple(x)) if x.__class__ is dict else None")
            src.add(3, "if c is None or (y := c(self, x, where, i, depth + 1, level + 2)) is None:")
            src.add(4, "y = self.node(x, f'{where}[{i}]', depth + 1, level + 2)")
            src.add(3, "w.append(y)")
            src.add(2, f"{v} = w")
            src.add(1, "else:")
            src.add(2, f"{v} = self.walk_list({v}, where, depth, level)")
            continue
        assert kind == _DROPPED
        src.add(1, f"if {v}.__class__ not in ATOMS:")
        src.add(2, f"self.nesting({v}, level)")
        if plan.measures or plan.inlines:
            src.add(1, f"self.hidden({key!r}, {v}, depth)")
        for rule in rules:
            rank, supported = _RANK[rule.severity], rule.action != "unsupported"
            values = f"{{'keyword': {key!r}}}"
            head = (rank, rule.code, supported, rule)
            _diagnostic(src, 1, head, f"path + {segment!r}", values, False)
            spec = rule.transformation
            if spec is not None:
                src.add(
                    1,
                    f"self.dfs.append(({spec['code']!r}, path + {segment!r}, {rule.lossy!r}, "
                    f"({spec['detail']!r}, {values})))",
                )
    # the copied values (not walked): a value that is not a scalar is copied within the limit
    _copies(
        src, [local[k] for k in leaf.keys if k not in walked and k not in _CHECKED], keys, local
    )
    if leaf.enum:  # a list of strings: copied in C within the limit (``_clone_within``)
        src.add(1, f"{local['enum']} = e.copy() if level < MAX else CLONE(e, 0)")
        if plan.measures:
            src.add(1, "self.tally.string_enum(e)")
    if leaf.upper:
        src.add(1, "self.type_names += 1")
    out_keys = list(leaf.keys)
    added = leaf.enum and plan.enum_format and not leaf.format
    if leaf.finish:
        for k in leaf.keys:
            if k in plan.int64_set:
                src.add(1, f"{local[k]} = INT64(self, {local[k]}, {k!r})")
    if added:
        code, detail = plan.step_heads["add-enum-format"]
        with_format = [k for k in plan.key_order if k in leaf.keys or k == "format"]
        src.add(1, "if e:")
        src.add(
            2,
            f"self.dfs.append(({code!r}, path + '.format', False, "
            f"({detail!r}, {src.const(_NO_VALUES)})))",
        )
        local["format"] = "'enum'"
        items = ", ".join(f"{k!r}: {local[k]}" for k in with_format)
        src.add(2, f"return {{{items}}}")
    items = ", ".join(f"{k!r}: {local[k]}" for k in out_keys)
    src.add(1, f"return {{{items}}}")
    # the enum-format step runs inside finish_node before the int64 scan; both only touch
    # their own keys and the enum step records first, so the order above is the same
    return src.compiled()


def _typed(src: _Source, plan: _Plan, leaf: _Leaf, local: dict[str, str]) -> None:
    """``RewriteWalk.node``'s check of a leaf's ``type`` (a string other than "object", one of
    the plain types when the target names them): one lookup in the names it passes, which for
    a target writing them in upper case gives the name to write (``u``)."""
    types = plan.plain_types
    src.add(1, "t = s['type']")
    local["type"] = "t"
    if types is None:
        src.add(1, "if t.__class__ is not str or t == 'object':")
        src.add(2, "return None")
        if leaf.upper:
            local["type"] = "t.upper()"
        return
    passing = sorted(types - {"object"})
    if leaf.upper:
        upper = {name: name.upper() for name in passing}
        src.add(1, f"u = {src.const(upper)}.get(t) if t.__class__ is str else None")
        src.add(1, "if u is None:")
        local["type"] = "u"
    else:
        src.add(1, f"if t.__class__ is not str or t not in {src.const(frozenset(passing))}:")
    src.add(2, "return None")


def _copies(src: _Source, names: list[str], keys: tuple[str, ...], local: dict[str, str]) -> None:
    """Read the kept keywords' values into ``names`` and copy those that are not scalars."""
    if not names:
        return
    by_name = {v: k for k, v in local.items()}
    targets = ", ".join(names)
    src.add(1, f"{targets} = " + ", ".join(f"s[{by_name[v]!r}]" for v in names))
    src.add(1, "if " + " or ".join(f"{v}.__class__ not in ATOMS" for v in names) + ":")
    src.add(2, f"{targets} = " + ", ".join(f"COPY({v}, MAX - level)" for v in names))


def _closing(src: _Source, plan: _Plan, has_required: bool) -> None:
    """``NodeRules.close_optional`` spelled out: every property the input's ``required``
    leaves out made nullable in ``props``, with its records (the diagnostics of errors the
    compile resolves only when the run keeps them)."""
    src.add(1, "rq = s['required']" if has_required else "rq = None")
    src.add(1, "if rq.__class__ is not list:")
    src.add(2, "rq = AS_LIST(rq)")
    src.add(1, "props = props or {}")
    src.add(1, "keep = self.keep_resolved")
    src.add(1, "optional = False")
    src.add(1, "for name in p:")
    src.add(2, "if name in rq:")
    src.add(3, "continue")
    src.add(2, "optional = True")
    src.add(2, f"where = pbase + {_segment_of('name')}")
    src.add(2, "values = {'property': name}")
    for rank, code, supported, rule, _, settled in plan.optional_records:
        line = (
            f"self.diagnostics.append(({rank}, where, {code!r}, {supported}, "
            f"({src.const(rule)}, values)))"
        )
        if settled:
            src.add(2, "if keep:")
            src.add(3, line)
        else:
            src.add(2, line)
    for code, lossy, detail in plan.optional_changes:
        src.add(2, f"self.dfs.append(({code!r}, where, {lossy!r}, ({detail!r}, values)))")
    src.add(2, "child = props.get(name, {})")
    src.add(2, "named = child.get('type') if child.__class__ is dict else None")
    src.add(2, "if named.__class__ is str and named != 'null' and 'enum' not in child:")
    src.add(3, "child['type'] = [named, 'null']")
    src.add(2, "else:")
    src.add(3, "props[name] = self.with_null(child)")
    if not src.read.isdisjoint(plan.optional_codes):
        src.add(1, "if optional:")
        src.add(2, f"self.fired.update({src.const(plan.optional_codes)})")


def _depth(src: _Source, plan: _Plan, indent: int) -> None:
    """Measure the subschema's depth when the target measures."""
    if plan.measures:
        src.add(indent, "m = self.tally")
        src.add(indent, "if depth > m.depth:")
        src.add(indent + 1, "m.depth = depth")


def object_code(plan: _Plan, keys: tuple[str, ...], obj: _Object) -> ShapeCode:
    """The function of an object shape: ``RewriteWalk.node``'s checks for it, then
    ``RewriteWalk.object`` with the object closed (``NodeRules.close_object``) for the state
    every such shape is in (``type`` "object", no ``additionalProperties``: "missing")."""
    src = _Source(plan)
    local = {k: f"v{i}" for i, k in enumerate(keys)}
    src.add(1, "t = s['type']")
    src.add(1, "p = s['properties']")
    src.add(1, "if t != 'object' or t.__class__ is not str or p.__class__ is not dict:")
    src.add(2, "return None")
    _depth(src, plan, 1)
    src.add(1, f"path = {_PATH}")
    if obj.report is not None:
        _reports(src, plan, keys, obj.report)
    _copies(src, [local[k] for k in obj.copies], keys, local)
    if obj.upper:
        src.add(1, "self.type_names += 1")
        local["type"] = "'OBJECT'"
    else:
        local["type"] = "t"
    src.add(1, "if level + 1 > MAX:")
    src.add(2, "raise BAIL")
    if plan.measures:
        src.add(1, "m.chars += sum(map(len, p))")
        src.add(1, "m.properties += len(p)")
    src.add(1, "pbase = path + '.properties'")
    # ``RewriteWalk.walk_properties``, inline: each property by its shape's function when it
    # has one and passes it, else by ``node``
    src.names["CODES"] = plan.codes
    src.add(1, "if level + 2 > MAX:")
    src.add(2, "props = self.walk_properties(p, pbase, depth, level)")
    src.add(1, "else:")
    src.add(2, "props = {}")
    src.add(2, "d, n = depth + 1, level + 2")
    src.add(2, "for k, v in p.items():")
    src.add(3, "if v.__class__ is dict:")
    src.add(4, "c = CODES.get(tuple(v))")
    src.add(4, "if c is not None and (w := c(self, v, pbase, k, d, n)) is not None:")
    src.add(5, "props[k] = w")
    src.add(5, "continue")
    src.add(3, f"props[k] = self.node(v, pbase + {_segment_of('k')}, d, n)")
    local["properties"] = "props"
    final = set(keys)
    if "required" in keys:
        v = local["required"]
        src.add(1, f"{v} = s['required']")
        scalars = f"{v}.__class__ is list and ATOMS.issuperset(map(type, {v}))"
        if plan.closing:  # closing writes ``required`` anew; a list of scalars cannot nest
            src.add(1, f"if {v}.__class__ not in ATOMS and not ({scalars}):")
            src.add(2, f"{v} = CLONE({v}, MAX - level)")
        else:  # a list of scalars copied in C within the limit (``_clone_within``)
            src.add(1, f"if level < MAX and {scalars}:")
            src.add(2, f"{v} = {v}.copy()")
            src.add(1, f"elif {v}.__class__ not in ATOMS:")
            src.add(2, f"{v} = CLONE({v}, MAX - level)")
    heads = plan.ap_heads_by_state["missing"]
    if heads:
        src.add(1, "where = path + '.additionalProperties'")
        fire_values, record_values = plan.ap_values["missing"]
        closed: bool | None = None
        for rule, rank, code, supported, action, change, _ in heads:
            _diagnostic(
                src, 1, (rank, code, supported, rule), "where", src.const(fire_values), False
            )
            if action == "keep":
                continue
            if change is not None:
                changed, lossy, detail = change
                src.add(
                    1,
                    f"self.dfs.append(({changed!r}, where, {lossy!r}, "
                    f"({detail!r}, {src.const(record_values)})))",
                )
            if action == "close-object":
                closed = True
            elif action == "drop-keyword":
                closed = False
        if closed:
            final.add("additionalProperties")
            local["additionalProperties"] = "False"
    if plan.closing:
        _closing(src, plan, "required" in keys)
        local["required"] = "list(p)"
        final.add("required")
    items = ", ".join(f"{k!r}: {local[k]}" for k in plan.key_order if k in final)
    src.add(1, f"return {{{items}}}")
    return src.compiled()


_NULL_SCHEMA = {"type": "null"}  # compared with, never handed out


def _nullable_branch(branches: Any) -> dict[str, Any] | None:
    """The branch ``node_rules.nullable_merged`` merges into its union's subschema when the
    merged subschema is no union: of exactly two branches, the one that is not
    ``{"type": "null"}`` when the other is, a map without ``$ref`` or ``anyOf``; else None."""
    if branches.__class__ is not list or len(branches) != 2:
        return None
    other, second = branches
    if second == _NULL_SCHEMA:
        if other == _NULL_SCHEMA:
            return None
    elif other == _NULL_SCHEMA:
        other = second
    else:
        return None
    if other.__class__ is not dict or "$ref" in other or "anyOf" in other:
        return None
    result: dict[str, Any] = other
    return result


def union_code(plan: _Plan, keys: tuple[str, ...]) -> ShapeCode | None:
    """The function of a union shape (``anyOf`` and its siblings) on a target that merges
    nullable unions: ``RewriteWalk.collapsed`` spelled out for the shape, the siblings' values
    read by name. It gives None, having changed nothing, for a union
    ``node_rules.nullable_merged`` does not merge or whose merged subschema is still a union.
    None (no function) when a sibling is not one of the target's keywords: only the catalog's
    keywords are ever written into a function."""
    known = plan.target.known_keywords
    if not all(k.__class__ is str and (k in known or k in plan.keyword_rules) for k in keys):
        return None
    src = _Source(plan)
    src.names["BRANCH"] = _nullable_branch
    src.names["CODES"] = plan.codes
    src.add(1, "o = BRANCH(s['anyOf'])")
    src.add(1, "if o is None:")
    src.add(2, "return None")
    # the union's own keywords first, in its order, then the branch's others, then nullable
    own = ", ".join(f"{k!r}: s[{k!r}]" for k in keys if k != "anyOf")
    src.add(1, f"m = {{{own}}}")
    src.add(1, "for k, v in o.items():")
    src.add(2, "if k not in m:")
    src.add(3, "m[k] = v")
    src.add(1, "m['nullable'] = True")
    src.add(1, f"path = {_PATH}")
    code, detail = plan.step_heads["collapse-nullable-any-of"]
    src.add(1, f"self.dfs.append(({code!r}, path, False, ({detail!r}, {src.const(_NO_VALUES)})))")
    # ``nesting(b, level)``, asked only when it can bail out: a list of two subschemas of
    # scalars nests two levels
    src.add(1, "if level + 2 > MAX or not ATOMS.issuperset(map(type, o.values())):")
    src.add(2, "self.nesting(s['anyOf'], level)")
    # the merged subschema by its shape's function, when it has one and passes, else ``node``
    src.add(1, "c = CODES.get(tuple(m))")
    src.add(1, "if c is not None and (w := c(self, m, path, None, depth, level)) is not None:")
    src.add(2, "return w")
    src.add(1, "return self.node(m, path, depth, level)")
    return src.compiled()


def write_code(plan: _Plan, keys: tuple[str, ...], program: _Leaf | _Object | None) -> None:
    """Write, compile and keep in ``plan.codes`` the function of shape ``keys`` (its
    ``program``; None: a union the walk may merge), when a subschema of it can pass the
    shape's checks."""
    if len(plan.codes) >= _CODES_MAX:
        return
    code = (
        union_code(plan, keys)
        if program is None
        else object_code(plan, keys, program)
        if program.__class__ is _Object
        else leaf_code(plan, keys, program)  # type: ignore[arg-type]
    )
    if code is not None:
        plan.codes[keys] = code
