"""Read one catalog YAML file into plain data, keeping the position of every node.

Built on pyyaml's C parser. Everything that makes a file hard to review is refused with its
position: syntax errors, duplicate or non-string keys, anchors and aliases, explicit tags, tabs,
non-UTF-8 bytes, empty files, symbolic links and files over the size cap.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.diagnostics import Diagnostic, Loc, diag

MAX_BYTES = 1024 * 1024  # an aggregator's inventory of ~600 models is ~350 kB
MAX_DEPTH = 32

NodePath = tuple[str | int, ...]

_STR = "tag:yaml.org,2002:str"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MERGE = "tag:yaml.org,2002:merge"
_NULL = "tag:yaml.org,2002:null"
_YAML_TYPE_NAMES = {
    "tag:yaml.org,2002:bool": "a boolean",
    "tag:yaml.org,2002:int": "an integer",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:null": "null",
}

if not hasattr(yaml, "CSafeLoader"):  # pragma: no cover - depends on how pyyaml was built
    raise ImportError(
        "pyyaml was built without libyaml; reinstall it with the C loader (make generate)"
    )
_Loader = yaml.CSafeLoader


@dataclass(slots=True)
class Document:
    """A loaded file: its data and where each node of it starts (1-based line and column)."""

    file: str
    data: Any
    positions: dict[NodePath, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[NodePath, tuple[int, int]] = field(default_factory=dict)
    text: str = ""

    def loc(self, path: NodePath, *, key: bool = False) -> Loc:
        """The position of the node at ``path`` (of its key when ``key``), or the nearest parent's."""
        table = self.key_positions if key else self.positions
        probe = path
        while True:
            if probe in table:
                line, column = table[probe]
                return (self.file, line, column)
            if not probe:
                return (self.file, 1, 1)
            if key:  # fall back to the value positions of the parents
                table = self.positions
            probe = probe[:-1]


def _mark(mark: Any) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


def load_file(path: Path, display: str) -> tuple[Document | None, list[Diagnostic]]:
    """Load ``path``; ``display`` is the name diagnostics use. Returns (document or None, problems)."""
    at_start: Loc = (display, 1, 1)
    try:
        if path.is_symlink():
            return None, [diag("symlink_not_allowed", at_start, f"{display} is a symbolic link")]
        size = os.stat(path).st_size
        if size > MAX_BYTES:
            return None, [
                diag(
                    "file_too_large",
                    at_start,
                    f"the file has {size} bytes; the cap is {MAX_BYTES}",
                )
            ]
        raw = path.read_bytes()
    except OSError as exc:
        return None, [diag("file_unreadable", at_start, f"cannot read the file: {exc.strerror}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        byte = raw[exc.start : exc.start + 1].hex()
        return None, [
            diag("invalid_utf8", (display, line, column), f"byte 0x{byte} is not valid UTF-8")
        ]
    text = text.removeprefix("\ufeff")
    problems = _tabs(text, display)
    if problems:
        return None, problems
    problems = _scan_events(text, display)
    if problems:
        return None, problems
    node = yaml.compose(text, Loader=_Loader)
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag == _NULL):
        return None, [diag("empty_file", at_start, "the file holds no YAML document")]
    doc = Document(display, None, text=text)
    problems = []
    doc.data = _convert(node, (), doc, problems)
    return (None, problems) if problems else (doc, [])


def _tabs(text: str, display: str) -> list[Diagnostic]:
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        column = line.find("\t")
        if column >= 0:
            found.append(
                diag("tab_character", (display, number, column + 1), "tab character in the file")
            )
    return found


def _scan_events(text: str, display: str) -> list[Diagnostic]:
    """One pass over the parser's events: syntax, anchors, aliases, tags, documents, depth."""
    problems: list[Diagnostic] = []
    documents = 0
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            loc = (display, *_mark(event.start_mark))
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents == 2:
                    problems.append(
                        diag("multiple_documents", loc, "a second YAML document starts here")
                    )
            elif isinstance(event, yaml.AliasEvent):
                problems.append(
                    diag("anchor_not_allowed", loc, f"alias '*{event.anchor}' refers to an anchor")
                )
            elif isinstance(event, yaml.NodeEvent):
                if event.anchor is not None:
                    problems.append(
                        diag("anchor_not_allowed", loc, f"anchor '&{event.anchor}' is declared")
                    )
                if _explicit_tag(event):
                    tag = getattr(event, "tag", "")
                    problems.append(diag("yaml_tag_not_allowed", loc, f"explicit tag '{tag}'"))
                if isinstance(event, yaml.CollectionStartEvent):
                    depth += 1
                    if depth == MAX_DEPTH + 1:
                        problems.append(
                            diag(
                                "nesting_too_deep",
                                loc,
                                f"the YAML nests more than {MAX_DEPTH} levels deep",
                            )
                        )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = _mark(mark) if mark is not None else (1, 1)
        what = exc.problem or "invalid YAML"
        if "nesting depth" in what:  # libyaml's own limit, met while scanning ahead
            problems.append(
                diag(
                    "nesting_too_deep",
                    (display, line, column),
                    f"the YAML nests more than {MAX_DEPTH} levels deep",
                )
            )
            return problems
        if exc.context:
            what = f"{exc.context}: {what}"
        problems.append(diag("yaml_syntax", (display, line, column), what))
    except yaml.YAMLError as exc:  # a reader error without a mark
        problems.append(diag("yaml_syntax", (display, 1, 1), str(exc).splitlines()[0]))
    return problems


def _explicit_tag(event: Any) -> bool:
    tag = getattr(event, "tag", None)
    if tag is None or tag == "!":
        return False
    if isinstance(event, yaml.ScalarEvent):
        return not (event.implicit[0] or event.implicit[1])
    return not bool(event.implicit)


_constructor = yaml.constructor.SafeConstructor()


def _scalar(node: yaml.ScalarNode) -> Any:
    if node.tag in (_STR, _TIMESTAMP):  # dates stay the text the author wrote
        return node.value
    return _constructor.construct_object(node, deep=True)


def _convert(node: yaml.Node, path: NodePath, doc: Document, problems: list[Diagnostic]) -> Any:
    doc.positions[path] = _mark(node.start_mark)
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, (*path, i), doc, problems) for i, item in enumerate(node.value)]
    assert isinstance(node, yaml.MappingNode)
    result: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key_loc = (doc.file, *_mark(key_node.start_mark))
        if key_node.tag == _MERGE:
            problems.append(
                diag(
                    "non_string_key",
                    key_loc,
                    "merge keys ('<<') are not allowed",
                    "write the merged keys out in full",
                )
            )
            continue
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _STR:
            if isinstance(key_node, yaml.ScalarNode):
                kind = _YAML_TYPE_NAMES.get(key_node.tag, "not a string")
                message = f"key '{key_node.value}' is read as {kind}"
            else:
                message = "a collection is used as a key"
            problems.append(diag("non_string_key", key_loc, message))
            continue
        key = key_node.value
        if key in result:
            first = doc.key_positions[(*path, key)]
            problems.append(
                diag(
                    "duplicate_yaml_key",
                    key_loc,
                    f"key '{key}' is already defined at line {first[0]}, column {first[1]}",
                )
            )
            continue
        doc.key_positions[(*path, key)] = _mark(key_node.start_mark)
        result[key] = _convert(value_node, (*path, key), doc, problems)
    return result
