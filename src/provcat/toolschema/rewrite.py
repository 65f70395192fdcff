"""The rewrite walk: every subschema rebuilt in the target's form, measured as it goes when the run
takes one walk.

A subschema whose key shape has a program in the plan (``plan._Leaf``: keywords copied or
dropped, subschemas under ``items``/``not`` and lists of them under ``anyOf``/``allOf``/
``prefixItems`` walked; ``plan._Object``: an object's ``type``,
``properties``, ``required`` and copied keywords) and whose values pass the shape's checks is
written by :meth:`RewriteWalk.leaf` or :meth:`RewriteWalk.object` instead of the per-keyword
loop of :meth:`RewriteWalk.node`; both give the same output and the same records in the same
order. An object's program takes a property of a leaf shape itself, as :meth:`RewriteWalk.node`
would: a plain one (scalars only, copied) copied in place, any other by :meth:`RewriteWalk.leaf`,
an object's by :meth:`RewriteWalk.object`.

A warm plan writes a recurring shape's program as one function (``shape_code``), and a
recurring nullable union the target merges as one too; the walk calls it first (the root from
the executor, an object's properties and a leaf's subschemas from inside the functions,
:meth:`walk_properties`, :meth:`walk_one`, :meth:`walk_list`, the start of :meth:`node`) and
interprets the program only when the shape has none yet or its values fail the function's
checks."""

from __future__ import annotations

from typing import Any

from provcat.toolschema.core import (
    LIST_SLOTS,
    MAP_SLOTS,
    MAX_NESTING,
    SINGLE_SLOTS,
    json_nesting,
    schemas_with_depth,
)
from provcat.toolschema.node_reports import NodeReports
from provcat.toolschema.node_rules import NodeRules, nullable_merged
from provcat.toolschema.plan import (
    _CACHE_MAX,
    _COPY,
    _DROP,
    _LIST,
    _ONE,
    _SPECIAL_KEY,
    _UNKNOWN,
    _UNSEEN,
    _Leaf,
    _Object,
    _segment,
)
from provcat.toolschema.shape_code import write_code
from provcat.toolschema.values import (
    _ATOMS,
    _NO_VALUES,
    _STRINGS,
    _Bail,
    _clone,
    _clone_within,
)

_REF_KEYS = frozenset({"$ref", "$defs", "definitions"})
# keywords whose value the rewrite walk copies whole (``enum`` may still be dropped after)
_CLONED_WHOLE = frozenset({"required", "enum"})


class RewriteWalk(NodeReports, NodeRules):
    """Rebuilds the schema subschema by subschema for ``schema_style: rewrite`` targets."""

    def node(self, s: Any, path: str, depth: int = 1, level: int = 1) -> Any:
        """The rewritten subschema ``s`` found at ``path``.

        ``depth`` counts subschemas (the root is 1) and ``level`` JSON nesting; the single pass
        (``tally`` set) checks the nesting as it goes, bailing out past ``MAX_NESTING``, and
        measures what the target's limit rules read (``measure``: nothing when it has none).
        Values the walk copies or drops without descending are checked and measured whole.
        """
        tally = self.tally
        if not isinstance(s, dict):
            if tally is not None:
                self.nesting(s, level - 1)
            return self.non_object(s, path)
        plan = self.plan
        measure = tally if plan.measures else None
        keys = tuple(s)
        if tally is not None:
            if depth == 1 and not plan.writing:  # a tool's root: counted until warm
                plan.walks += 1
                if plan.walks >= plan.warm_walks:
                    plan.writing = plan.writes_code
            if level > MAX_NESTING:
                raise _Bail
            if measure is not None and depth > measure.depth:
                measure.depth = depth
            code = plan.codes.get(keys)
            if (
                code is not None
                and (written := code(self, s, path, None, depth, level)) is not None
            ):
                return written
        leaf = plan.leaves.get(keys, _UNSEEN)
        if leaf is _UNSEEN:
            leaf = plan.leaf(keys)
        if (
            tally is not None
            and plan.writing
            and (leaf is not None or (plan.collapse and "anyOf" in s))
            and keys not in plan.codes
        ):
            self.sighted(keys, leaf)
        if leaf.__class__ is _Object:
            if (
                tally is not None
                and s["type"] == "object"
                and s["type"].__class__ is str
                and s["properties"].__class__ is dict
            ):
                return self.object(s, path, depth, level, leaf)
        elif (
            leaf is not None
            and tally is not None
            and (
                not leaf.typed
                or (
                    (t := s["type"]).__class__ is str
                    and t != "object"
                    and (plan.plain_types is None or t in plan.plain_types)
                )
            )
        ):
            if leaf.plain:
                if _ATOMS.issuperset(map(type, s.values())):
                    # scalars only, copied: the loop below writes ``s`` in the target's order
                    copied = s.copy() if leaf.same else {k: s[k] for k in leaf.keys}
                    if leaf.upper:
                        self.type_names += 1
                        copied["type"] = t.upper()
                    return copied
            elif (
                not leaf.enum
                or ((e := s["enum"]).__class__ is list and _STRINGS.issuperset(map(type, e)))
            ) and (
                not leaf.format
                or (
                    (f := s["format"]).__class__ is str
                    and (not plan.format_drop or (plan.kept_formats and f in plan.kept_formats))
                )
            ):
                return self.leaf(s, path, depth, level, leaf)
        if plan.collapse and "anyOf" in s:
            merged = self.collapse_nullable(s, path)
            if merged is not s:
                if tally is not None:
                    self.nesting(s["anyOf"], level)
                if "anyOf" not in merged:
                    # written as the subschema it now is (its shape's program, if it has one);
                    # a union merged from a union is not collapsed twice
                    return self.node(merged, path, depth, level)
            s = merged
        if plan.reports and not plan.report_keys.isdisjoint(s):
            shape = tuple(s)  # ``s`` may be a merged union now
            self.report_shape(s, path, plan.report_shapes.get(shape) or plan.reports_for(shape))
        out: dict[str, Any] = {}
        const_enum: list[Any] | None = None
        one_of: list[Any] | None = None
        nullable_from_type = False
        nullable_key = False
        fates = plan.fates
        node = self.node
        for key, value in s.items():
            fate = fates.get(key)
            if fate is None:
                fate = plan.fate(key)
            if fate == _COPY:
                if value.__class__ in _ATOMS:
                    out[key] = value
                elif tally is not None:
                    out[key] = _clone_within(value, MAX_NESTING - level)
                else:
                    out[key] = _clone(value)
                continue
            if fate == _SPECIAL_KEY:  # the two commonest keywords first, without a path
                if (
                    key == "type"
                    and value.__class__ is str
                    and (plan.plain_types is None or value in plan.plain_types)
                    and "anyOf" not in s
                    and "oneOf" not in s
                ):
                    if plan.upper:
                        self.type_names += 1
                        out["type"] = value.upper()
                    else:
                        out["type"] = value
                    continue
                if key == "properties" and isinstance(value, dict):
                    if tally is not None:
                        if level + 1 > MAX_NESTING:  # ``nesting(value, level, shallow=True)``
                            raise _Bail
                        if measure is not None:  # ``measure.names(value, key)``
                            measure.chars += sum(map(len, value))
                            measure.properties += len(value)
                    base = path + ".properties"
                    out[key] = {
                        k: node(
                            v,
                            base + _segment(k),
                            depth + 1,
                            level + 2,
                        )
                        for k, v in value.items()
                    }
                    continue
            if tally is not None:
                if value.__class__ not in _ATOMS:
                    if fate == _SPECIAL_KEY and key in _CLONED_WHOLE:  # never descended into
                        value = _clone_within(value, MAX_NESTING - level)  # bounded copy
                        if key == "required":
                            out[key] = value
                            continue
                    elif fate != _SPECIAL_KEY or not self.descends(key, value):
                        self.nesting(value, level)
                if fate == _DROP:
                    self.hidden(key, value, depth)
            where = path + _segment(key)
            if fate == _DROP:
                for rule in plan.drops[key]:
                    self.fire(rule, where, keyword=key)
                    self.record(rule, where, keyword=key)
                continue
            if fate == _UNKNOWN:
                dropped = False
                for rule, _ in plan.unknown:
                    self.fire(rule, where, keyword=key)
                    if rule.action == "drop-keyword":
                        self.record(rule, where, keyword=key)
                        dropped = True
                if not dropped:
                    out[key] = _clone(value)
                continue
            if key == "type":
                kept = self.type_rules(s, value, where, out)
                if kept is not None:
                    names, nullable_from_type = kept
                    if len(names) == 1:
                        out["type"] = names[0]
                    elif names:
                        out["type"] = names
            elif key in ("properties", "required"):  # properties that are not a map
                out[key] = _clone(value)
            elif key == "items" or key == "not":
                out[key] = node(value, where, depth + 1, level + 1)
            elif key == "enum":
                if measure is not None and isinstance(value, list):
                    measure.enum(value)
                if (
                    isinstance(value, list)
                    and plan.enum_values
                    and self.enum_rules(value, path, drop_allowed=True)
                ):
                    continue
                out[key] = value if tally is not None else _clone(value)  # copied above
            elif key == "format":
                if isinstance(value, str) and plan.format_drop and self.format_drop(value, where):
                    continue
                out[key] = value
            elif key in ("$defs", "definitions"):
                if tally is not None and plan.inlines:
                    raise _Bail  # definitions to drop and references to inline: the full run
                if tally is not None and isinstance(value, dict):
                    self.nesting(value, level, shallow=True)
                    if measure is not None:
                        measure.names(value, key)
                children = (
                    {
                        k: node(v, where + _segment(k), depth + 1, level + 2)
                        for k, v in value.items()
                    }
                    if isinstance(value, dict)
                    else _clone(value)
                )
                if key == "definitions":
                    case = "conflicting" if "$defs" in s else "legacy"
                    target_key = "definitions"
                    for rule, trig in self.target.fires("definitions"):
                        if trig["case"] != case:
                            continue
                        self.fire(rule, where, keyword=key)
                        if rule.action == "drop-keyword":
                            self.record(rule, where, keyword=key)
                            target_key = ""
                        elif rule.action == "rename-definitions":
                            self.record(rule, where, keyword=key)
                            target_key = "$defs"
                            if path == "inputSchema":
                                self.renamed_definitions = True
                                self.rename_rule = rule
                    if target_key:
                        out[target_key] = children
                else:
                    out[key] = children
            elif key in ("anyOf", "allOf", "prefixItems"):
                if tally is not None and isinstance(value, list):
                    self.nesting(value, level, shallow=True)
                out[key] = (
                    [node(v, f"{where}[{i}]", depth + 1, level + 2) for i, v in enumerate(value)]
                    if isinstance(value, list)
                    else _clone(value)
                )
            elif key == "oneOf":
                if tally is not None and isinstance(value, list):
                    self.nesting(value, level, shallow=True)
                branches = (
                    [node(v, f"{where}[{i}]", depth + 1, level + 2) for i, v in enumerate(value)]
                    if isinstance(value, list)
                    else _clone(value)
                )
                converted = False
                for rule, _ in self.target.fires("one-of"):
                    self.fire(rule, where, keyword=key)
                    if rule.action == "one-of-to-any-of":
                        self.record(rule, where, keyword=key)
                        converted = True
                if converted:
                    one_of = branches
                else:
                    out[key] = branches
            elif key == "additionalProperties":
                if isinstance(value, dict) and not plan.replaces_map:
                    out[key] = node(value, where, depth + 1, level + 1)
                else:
                    if tally is not None:
                        self.hidden(key, value, depth)
                    out[key] = _clone(value)
            elif key == "const":
                if measure is not None and isinstance(value, str):
                    measure.chars += len(value)
                const_enum = self.const_rules(s, value, where, out)
            elif key == "nullable":
                nullable_key = True
            elif key == "$ref":
                if tally is not None and plan.inlines:
                    raise _Bail
                if plan.kept_ref_rules:
                    self.ref_rules(value, path)
                out[key] = value
        if one_of is not None:
            if "anyOf" in out:
                pass  # `anyOf` beside `oneOf`: the oneOf constraint is dropped (recorded as lossy)
            else:
                out["anyOf"] = one_of
        if const_enum is not None:
            out["enum"] = const_enum
        if nullable_key and not self.nullable_rules(s, path, out):
            out["nullable"] = s["nullable"]
        if nullable_from_type:
            out["nullable"] = True
        if (
            "properties" in s
            or "additionalProperties" in s
            or "required" in s
            or ("type" in s and (s["type"] == "object" or isinstance(s["type"], list)))
        ):
            self.close_object(s, path, out)
        if (plan.enum_format and "enum" in out) or (
            plan.int64 and not plan.int64_set.isdisjoint(out)
        ):
            self.finish_node(out, path)
        return plan.order(out)

    def object(self, s: dict[str, Any], path: str, depth: int, level: int, obj: _Object) -> Any:
        """What :meth:`node` gives for an object of ``obj``'s shape in the one walk: the same
        output and records (reports, the properties' own, then closing the object's), without
        asking each keyword what to do. The caller checked ``type`` and ``properties``."""
        if obj.report is not None:
            self.report_shape(s, path, obj.report)
        out = s.copy()  # the input's order, as the loop writes it; values replaced in place
        for key in obj.copies:
            value = out[key]
            if value.__class__ not in _ATOMS:
                out[key] = _clone_within(value, MAX_NESTING - level)
        if obj.upper:
            self.type_names += 1
            out["type"] = "OBJECT"
        value = s["properties"]
        if level + 1 > MAX_NESTING:  # ``nesting(value, level, shallow=True)``
            raise _Bail
        plan = self.plan
        if plan.measures:  # ``measure.names(value, key)``
            measure = self.tally
            assert measure is not None
            measure.chars += sum(map(len, value))
            measure.properties += len(value)
        base = path + ".properties"
        node = self.node
        props: dict[str, Any] = {}
        if level + 2 > MAX_NESTING:  # each property bails out in ``node``
            for k, v in value.items():
                props[k] = node(
                    v,
                    base + _segment(k),
                    depth + 1,
                    level + 2,
                )
        else:
            # what ``node`` does for a property of a leaf shape whose values pass its checks,
            # without the call: a plain one (scalars only, copied) is copied here without its
            # path, any other written by ``leaf``; any other property takes ``node``
            leaves, types, atoms = plan.leaves, plan.plain_types, _ATOMS
            format_drop, kept_formats = plan.format_drop, plan.kept_formats
            measure = self.tally if plan.measures else None
            # a property whose shape has its function is written by it; any other shape with a
            # program is counted towards its function (``sighted``)
            codes = plan.codes if plan.writing else None
            for k, v in value.items():
                if v.__class__ is dict:
                    leaf = leaves.get(keys := tuple(v))
                    if codes is not None and leaf is not None:
                        code = codes.get(keys)
                        if code is None:
                            self.sighted(keys, leaf)
                        elif (written := code(self, v, base, k, depth + 1, level + 2)) is not None:
                            props[k] = written
                            continue
                    if leaf.__class__ is _Leaf and (
                        not leaf.typed
                        or (
                            (t := v["type"]).__class__ is str
                            and t != "object"
                            and (types is None or t in types)
                        )
                    ):
                        if leaf.plain:
                            if atoms.issuperset(map(type, v.values())):
                                if measure is not None and depth + 1 > measure.depth:
                                    measure.depth = depth + 1
                                copied = v.copy() if leaf.same else {n: v[n] for n in leaf.keys}
                                if leaf.upper:
                                    self.type_names += 1
                                    copied["type"] = t.upper()
                                props[k] = copied
                                continue
                        elif (
                            not leaf.enum
                            or (
                                (e := v["enum"]).__class__ is list
                                and _STRINGS.issuperset(map(type, e))
                            )
                        ) and (
                            not leaf.format
                            or (
                                (f := v["format"]).__class__ is str
                                and (not format_drop or (kept_formats and f in kept_formats))
                            )
                        ):
                            if measure is not None and depth + 1 > measure.depth:
                                measure.depth = depth + 1
                            props[k] = self.leaf(
                                v,
                                base + _segment(k),
                                depth + 1,
                                level + 2,
                                leaf,
                            )
                            continue
                    elif (
                        leaf.__class__ is _Object
                        and v["type"] == "object"
                        and v["type"].__class__ is str
                        and v["properties"].__class__ is dict
                    ):
                        if measure is not None and depth + 1 > measure.depth:
                            measure.depth = depth + 1
                        props[k] = self.object(
                            v,
                            base + _segment(k),
                            depth + 1,
                            level + 2,
                            leaf,
                        )
                        continue
                props[k] = node(
                    v,
                    base + _segment(k),
                    depth + 1,
                    level + 2,
                )
        out["properties"] = props
        if "required" in s:
            value = s["required"]
            if value.__class__ not in _ATOMS and not (
                # closing writes ``required`` anew; a list of scalars cannot nest too deep
                plan.closing and value.__class__ is list and _ATOMS.issuperset(map(type, value))
            ):
                out["required"] = _clone_within(value, MAX_NESTING - level)
        self.close_object(s, path, out)
        return plan.order(out)

    def leaf(self, s: dict[str, Any], path: str, depth: int, level: int, leaf: _Leaf) -> Any:
        """What the loop of :meth:`node` gives for a subschema of ``leaf``'s shape in the one
        walk: the same records in the same order (reports, then each dropped keyword in the
        input's order, then the finishing steps), the output written in the target's key order
        at once. The caller checked the values ``leaf`` depends on."""
        if leaf.report is not None:
            self.report_shape(s, path, leaf.report)
        plan = self.plan
        walked: dict[str, Any] | None = None
        for key, segment, kind, rules in leaf.events:
            value = s[key]
            where = path + segment
            if kind == _ONE:
                if walked is None:
                    walked = {}
                if plan.writing:
                    walked[key] = self.walk_one(value, path, key, depth + 1, level + 1)
                    continue
                copied = self.plain_child(value, depth + 1, level + 1)
                walked[key] = (
                    copied if copied is not None else self.node(value, where, depth + 1, level + 1)
                )
                continue
            if kind == _LIST:
                if walked is None:
                    walked = {}
                walked[key] = self.walk_list(value, where, depth, level)
                continue
            if value.__class__ not in _ATOMS:
                self.nesting(value, level)
            self.hidden(key, value, depth)
            for rule in rules:
                self.fire(rule, where, keyword=key)
                self.record(rule, where, keyword=key)
        out = {k: s[k] for k in leaf.keys}
        if not _ATOMS.issuperset(map(type, out.values())):
            room = MAX_NESTING - level
            for key, value in out.items():
                if value.__class__ not in _ATOMS and key not in leaf.walked:
                    out[key] = _clone_within(value, room)
        if walked is not None:
            out.update(walked)  # in their places
        if leaf.enum and plan.measures:  # a list of strings (the caller checked)
            assert self.tally is not None
            self.tally.string_enum(s["enum"])
        if leaf.typed and plan.upper:
            self.type_names += 1
            out["type"] = out["type"].upper()
        if leaf.finish:
            self.finish_node(out, path)
            if leaf.refit:
                return plan.order(out)
        return out

    def sighted(self, keys: tuple[str, ...], program: _Leaf | _Object | None) -> None:
        """Count a subschema of shape ``keys`` met without its function (``program``: its
        program, None for a union the walk may merge); at the plan's mark the shape's function
        is written (once: the count stops there), and the walk calls it from then on."""
        plan = self.plan
        sightings = plan.sightings
        seen = sightings.get(keys, 0) + 1
        if seen <= plan.code_after and (seen > 1 or len(sightings) < _CACHE_MAX):
            sightings[keys] = seen
            if seen == plan.code_after:
                write_code(plan, keys, program)
                if program is None and keys not in plan.codes:  # a union with other keywords
                    plan.codes[keys] = RewriteWalk.collapsed

    def collapsed(
        self, s: dict[str, Any], base: str, key: str | int | None, depth: int, level: int
    ) -> Any:
        """What :meth:`node` gives, in the one walk, for a union ``s`` (at ``base``, or
        ``base`` joined with property ``key``) that ``collapse_nullable`` merges into a
        subschema without a union: the merged subschema written as itself, in one pass; None,
        having changed nothing, for any other ``s``. The shape function of a union whose
        siblings are not all catalog keywords (any other union's is ``shape_code.union_code``)."""
        branches = s["anyOf"]
        found = nullable_merged(s, branches) if isinstance(branches, list) else None
        if found is None or "anyOf" in found[1]:
            return None
        merged, other = found
        if key is None:
            path = base
        elif isinstance(key, int):  # an item of a list of subschemas
            path = f"{base}[{key}]"
        else:
            path = base + _segment(key)
        code, detail = self.plan.step_heads["collapse-nullable-any-of"]  # ``step``, inline
        self.dfs.append((code, path, False, (detail, _NO_VALUES)))
        # ``nesting(branches, level)``: a list of two subschemas of scalars nests two levels
        if _ATOMS.issuperset(map(type, other.values())):
            if level + 2 > MAX_NESTING:
                raise _Bail
        else:
            self.nesting(branches, level)
        # ``node(merged, ...)``: the merged shape's function, when it has one and passes
        merged_code = self.plan.codes.get(tuple(merged))
        if merged_code is not None:
            written = merged_code(self, merged, path, None, depth, level)
            if written is not None:
                return written
        return self.node(merged, path, depth, level)

    def walk_list(self, value: Any, where: str, depth: int, level: int) -> Any:
        """What :meth:`node` writes for ``value`` of a list slot (``anyOf``, ...) at ``where`` of
        a subschema at ``depth`` and ``level`` in the one walk: each subschema walked, a plain
        one copied without its path; a value that is not a list copied whole."""
        if isinstance(value, list):
            if level + 1 > MAX_NESTING:  # ``nesting(value, level, shallow=True)``
                raise _Bail
            node = self.node
            if not self.plan.writing or level + 2 > MAX_NESTING:
                plain = self.plain_child
                return [
                    node(v, f"{where}[{i}]", depth + 1, level + 2)
                    if (copied := plain(v, depth + 1, level + 2)) is None
                    else copied
                    for i, v in enumerate(value)
                ]
            # each subschema by its shape's function (its path, ``where`` joined with its
            # index, made only if it records) when it has one and passes it
            codes = self.plan.codes
            out: list[Any] = []
            for i, v in enumerate(value):
                if v.__class__ is dict:
                    code = codes.get(tuple(v))
                    if code is not None:
                        written = code(self, v, where, i, depth + 1, level + 2)
                        if written is not None:
                            out.append(written)
                            continue
                out.append(node(v, f"{where}[{i}]", depth + 1, level + 2))
            return out
        # not a list of subschemas: copied, as the general walk does
        if value.__class__ not in _ATOMS:
            self.nesting(value, level)
        return _clone(value)

    def walk_one(self, v: Any, path: str, key: str, depth: int, level: int) -> Any:
        """What :meth:`node` writes for ``v`` under ``key`` (``items``, ``not``) of the
        subschema at ``path``, ``v`` being at ``depth`` and ``level``, in the one walk: by its
        shape's function when it has one and the value passes it (no path made), else by
        :meth:`node`."""
        if v.__class__ is dict and level <= MAX_NESTING:
            code = self.plan.codes.get(tuple(v))
            if code is not None and (written := code(self, v, path, key, depth, level)) is not None:
                return written
        return self.node(
            v,
            path + _segment(key),
            depth,
            level,
        )

    def walk_properties(
        self, value: dict[str, Any], base: str, depth: int, level: int
    ) -> dict[str, Any]:
        """The written ``properties`` map ``value`` (at ``base``) of an object at ``depth`` and
        ``level`` in the one walk: each property by its shape's function when it has one and
        passes it (its path made only if it records), else by :meth:`node`."""
        node = self.node
        props: dict[str, Any] = {}
        if level + 2 > MAX_NESTING:  # each property bails out in ``node``
            for k, v in value.items():
                props[k] = node(
                    v,
                    base + _segment(k),
                    depth + 1,
                    level + 2,
                )
            return props
        codes = self.plan.codes
        for k, v in value.items():
            if v.__class__ is dict:
                code = codes.get(tuple(v))
                if code is not None:
                    written = code(self, v, base, k, depth + 1, level + 2)
                    if written is not None:
                        props[k] = written
                        continue
            props[k] = node(
                v,
                base + _segment(k),
                depth + 1,
                level + 2,
            )
        return props

    def plain_child(self, v: Any, depth: int, level: int) -> dict[str, Any] | None:
        """What :meth:`node` gives for ``v`` at ``depth`` and ``level`` in the one walk when it
        is of a plain leaf shape (scalars only, copied: no record, so no path), else None."""
        if v.__class__ is not dict or level > MAX_NESTING:
            return None
        leaf = self.plan.leaves.get(tuple(v))
        if leaf.__class__ is not _Leaf or not leaf.plain:
            return None
        types = self.plan.plain_types
        if leaf.typed and not (
            (t := v["type"]).__class__ is str and t != "object" and (types is None or t in types)
        ):
            return None
        if not _ATOMS.issuperset(map(type, v.values())):
            return None
        measure = self.tally if self.plan.measures else None
        if measure is not None and depth > measure.depth:
            measure.depth = depth
        copied: dict[str, Any] = v.copy() if leaf.same else {n: v[n] for n in leaf.keys}
        if leaf.upper:
            self.type_names += 1
            copied["type"] = t.upper()
        return copied

    def hidden(self, key: str, value: Any, depth: int) -> None:
        """Account for ``key: value`` of a subschema at ``depth`` that the single pass drops or
        replaces without walking: measure it (when the target measures), and hand the tool to the
        full run when a reference or definitions under it would have been inlined first."""
        assert self.tally is not None
        if self.plan.measures:
            self.tally.key(key, value, depth)
        if not self.plan.inlines:
            return
        if key in _REF_KEYS:
            raise _Bail
        children: list[Any] = []
        if key in MAP_SLOTS and isinstance(value, dict):
            children = list(value.values())
        elif key in LIST_SLOTS and isinstance(value, list):
            children = value
        elif key in SINGLE_SLOTS:
            children = [value]
        for child in children:
            if isinstance(child, dict):
                for sub, _ in schemas_with_depth(child):
                    if not _REF_KEYS.isdisjoint(sub):
                        raise _Bail

    def descends(self, key: str, value: Any) -> bool:
        """Whether the rewrite walk descends into ``value`` of ``key`` entry by entry (and so
        measures its nesting as it goes)."""
        if key in ("items", "not"):
            return True
        if key in MAP_SLOTS:
            return isinstance(value, dict)
        if key in LIST_SLOTS:
            return isinstance(value, list)
        return (
            key == "additionalProperties"
            and isinstance(value, dict)
            and not (self.plan.replaces_map)
        )

    def nesting(self, value: Any, level: int, *, shallow: bool = False) -> None:
        """Bail out of the single pass when ``value``, found at nesting ``level``, reaches past
        ``MAX_NESTING`` (``shallow``: only its own level, its items are walked one by one)."""
        if shallow:
            if level + 1 > MAX_NESTING:
                raise _Bail
        elif level + json_nesting(value, MAX_NESTING) > MAX_NESTING:
            raise _Bail
