"""Read one catalog YAML file into plain data, keeping the position of every node.

Built on pyyaml's C parser. Everything that makes a file hard to review is refused with its
position: syntax errors, duplicate or non-string keys, anchors and aliases, explicit tags, tabs,
non-UTF-8 bytes, empty files, symbolic links, files over the size cap and what is no regular
file (a named pipe, a socket, a device: never opened in a way that waits).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.diagnostics import Diagnostic, Loc, diag
from generator.scalars import (
    AMBIGUOUS,
    MERGE,
    NULL,
    STR,
    TYPE_NAMES,
    ambiguous,
    reading,
    readings,
    tag_of,
    value_of,
)

MAX_BYTES = 1024 * 1024  # an aggregator's inventory of ~600 models is ~350 kB
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
# what a file that is no regular file is, as read_source names it
_KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFDIR: "a folder",
}
MAX_DEPTH = 32

NodePath = tuple[str | int, ...]


def path_text(path: NodePath) -> str:
    """``path`` as diagnostics write it: its parts joined by ``/`` (``models/0/prices``)."""
    return "/".join(str(p) for p in path)


if not hasattr(yaml, "CSafeLoader"):  # pragma: no cover - depends on how pyyaml was built
    raise ImportError(
        "pyyaml was built without libyaml; reinstall it with the C loader (make generate)"
    )
_Loader = yaml.CSafeLoader
# the event types, read once (the loop below compares each event's type with them)
_ScalarEvent, _AliasEvent = yaml.ScalarEvent, yaml.AliasEvent
_MappingStartEvent, _MappingEndEvent = yaml.MappingStartEvent, yaml.MappingEndEvent
_SequenceStartEvent, _SequenceEndEvent = yaml.SequenceStartEvent, yaml.SequenceEndEvent
_DocumentStartEvent = yaml.DocumentStartEvent


@dataclass(slots=True)
class Document:
    """A loaded file: its data and where each node of it starts (1-based line and column)."""

    file: str
    data: Any
    positions: dict[NodePath, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[NodePath, tuple[int, int]] = field(default_factory=dict)
    text: str = ""
    # each plain value YAML 1.1 reads otherwise (refused): its path and text, held as the text
    ambiguous: list[tuple[NodePath, str]] = field(default_factory=list)

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
    """Load ``path``; ``display`` is the name diagnostics use. Returns (document or None, problems).
    ``generator.schema_check.load_file`` also words hints by the file's schema."""
    raw, problems = read_source(path, display)
    if raw is None:
        return None, problems
    return load_bytes(raw, display)


def read_source(path: Path, display: str) -> tuple[bytes | None, list[Diagnostic]]:
    """The bytes of catalog file ``path``, or why it cannot be one (a link, no regular file, too
    large, unreadable)."""
    at_start: Loc = (display, 1, 1)
    try:
        if path.is_symlink():
            return None, [diag("symlink_not_allowed", at_start, f"{display} is a symbolic link")]
        odd = _not_regular(os.stat(path).st_mode, display)
        if odd:
            return None, odd
        # opened without waiting (a named pipe put in its place since would block until a
        # writer came), then looked at again
        fd = os.open(path, os.O_RDONLY | _NONBLOCK)
        with open(fd, "rb") as handle:
            st = os.fstat(fd)
            odd = _not_regular(st.st_mode, display)
            if odd:
                return None, odd
            if st.st_size > MAX_BYTES:
                return None, [
                    diag(
                        "file_too_large",
                        at_start,
                        f"the file has {st.st_size} bytes; the cap is {MAX_BYTES} "
                        f"({MAX_BYTES // 1024} KiB)",
                    )
                ]
            if _NONBLOCK:
                os.set_blocking(fd, True)
            return handle.read(), []
    except OSError as exc:
        return None, [diag("file_unreadable", at_start, f"cannot read the file: {exc.strerror}")]


def _not_regular(mode: int, display: str) -> list[Diagnostic]:
    if stat.S_ISREG(mode):
        return []
    what = _KINDS.get(stat.S_IFMT(mode), "not a file")
    return [diag("not_regular_file", (display, 1, 1), f"{display} is not a regular file ({what})")]


def load_bytes(raw: bytes, display: str) -> tuple[Document | None, list[Diagnostic]]:
    """Load a catalog file's bytes ``raw`` (``display``: its name in diagnostics): the document,
    or None and the problems. A value YAML 1.1 reads otherwise than 1.2 gets a hint that names
    both readings (``generator.schema_check.load_bytes`` words it by the file's schema)."""
    doc, shape = read_bytes(raw, display)
    return (None, shape) if shape else (doc, [])


def read_bytes(raw: bytes, display: str) -> tuple[Document | None, list[Diagnostic]]:
    """The document ``raw`` holds and the problems of its shape: None and why when it could not
    be read; the document beside problems the reader refuses it for (a value YAML 1.1 reads
    otherwise, ...), for a caller that words their hints (``generator.schema_check``)."""
    at_start: Loc = (display, 1, 1)
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
    doc = Document(display, None, text=text)
    problems, shape, found = _read(text, doc)
    if problems:
        return None, problems
    if found is _NOTHING:
        return None, [diag("empty_file", at_start, "the file holds no YAML document")]
    doc.data = found
    return doc, shape


def _tabs(text: str, display: str) -> list[Diagnostic]:
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        column = line.find("\t")
        if column >= 0:
            found.append(
                diag("tab_character", (display, number, column + 1), "tab character in the file")
            )
    return found


_NOTHING: Any = object()  # no document, or only a null one
_EXPECT_KEY, _SKIP_KEY, _SKIP_VALUE = object(), object(), object()


def _read(text: str, doc: Document) -> tuple[list[Diagnostic], list[Diagnostic], Any]:
    """One pass over the parser's events that both refuses what makes a file hard to review
    (syntax, anchors, aliases, tags, documents, depth: the first list) and builds the data with
    the position of every node, refusing duplicate and non-string keys (the second list).

    The data is only good when the first list is empty; it is ``_NOTHING`` for a file without a
    document or with a null one.
    """
    display = doc.file
    problems: list[Diagnostic] = []
    shape: list[Diagnostic] = []
    positions = doc.positions
    key_positions = doc.key_positions
    documents = 0
    depth = 0
    root: Any = _NOTHING
    # open collections: [container, its path, is a mapping, the pending key or a marker]
    stack: list[list[Any]] = []
    skip = 0  # > 0: inside a subtree left out (a refused key or the value under it)
    building = True
    try:
        # the parser's events straight from it: yaml.parse's generator costs a call per event;
        # get_event gives None after the stream's end, and the parser frees itself when dropped
        events: Iterator[Any] = iter(_Loader(text).get_event, None)
        for event in events:
            kind = type(event)
            if kind is _ScalarEvent or kind is _MappingStartEvent or kind is _SequenceStartEvent:
                mark = event.start_mark
                if event.anchor is not None:
                    problems.append(
                        diag(
                            "anchor_not_allowed",
                            (display, *_mark(mark)),
                            f"anchor '&{event.anchor}' is declared",
                        )
                    )
                if event.tag is not None and _explicit_tag(event):
                    problems.append(
                        diag(
                            "yaml_tag_not_allowed",
                            (display, *_mark(mark)),
                            f"explicit tag '{event.tag}'",
                        )
                    )
                collection = kind is not _ScalarEvent
                if collection:
                    depth += 1
                    if depth == MAX_DEPTH + 1:
                        problems.append(
                            diag(
                                "nesting_too_deep",
                                (display, *_mark(mark)),
                                f"the YAML nests more than {MAX_DEPTH} levels deep",
                            )
                        )
                if problems:
                    building = False
                if not building:
                    continue
                if skip:
                    skip += collection
                    continue
                value: Any
                refused: str | None = None
                if collection:
                    value = {} if kind is _MappingStartEvent else []
                else:
                    tag = event.tag
                    if tag is None or tag == "!":
                        text = event.value
                        tag = tag_of(text, event.implicit)
                        if tag == AMBIGUOUS and not (
                            stack and stack[-1][2] and stack[-1][3] is _EXPECT_KEY
                        ):  # a value YAML 1.1 reads otherwise (a key is non_string_key's)
                            message, hint = ambiguous(text)
                            shape.append(
                                diag("ambiguous_yaml_value", (display, *_mark(mark)), message, hint)
                            )
                            tag = STR
                            refused = text
                if not stack:
                    path: NodePath = ()
                    if collection:
                        root = value
                    elif tag != NULL:
                        root = value_of(tag, event)
                else:
                    frame = stack[-1]
                    if frame[2]:
                        pending = frame[3]
                        if pending is _EXPECT_KEY:  # this node is a key
                            if (
                                not collection and tag == STR and event.value not in frame[0]
                            ):  # new key
                                frame[3] = key = event.value
                                key_positions[(*frame[1], key)] = (mark.line + 1, mark.column + 1)
                                continue
                            frame[3] = _key(
                                event, collection, tag if not collection else "", frame, doc, shape
                            )
                            if collection:
                                skip = 1
                            continue
                        if pending is _SKIP_VALUE:
                            frame[3] = _EXPECT_KEY
                            skip = int(collection)
                            continue
                        path = (*frame[1], pending)
                        frame[3] = _EXPECT_KEY
                        if not collection:
                            value = value_of(tag, event)
                        frame[0][pending] = value
                    else:
                        path = (*frame[1], len(frame[0]))
                        if not collection:
                            value = value_of(tag, event)
                        frame[0].append(value)
                positions[path] = (mark.line + 1, mark.column + 1)
                if refused is not None:
                    doc.ambiguous.append((path, refused))
                    refused = None
                if collection:
                    stack.append([value, path, kind is _MappingStartEvent, _EXPECT_KEY])
            elif kind is _MappingEndEvent or kind is _SequenceEndEvent:
                depth -= 1
                if not building:
                    continue
                if skip:
                    skip -= 1
                    if not skip and stack and stack[-1][3] is _SKIP_KEY:
                        stack[-1][3] = _SKIP_VALUE  # the value under a refused key goes too
                    continue
                stack.pop()
            elif kind is _AliasEvent:
                building = False
                problems.append(
                    diag(
                        "anchor_not_allowed",
                        (display, *_mark(event.start_mark)),
                        f"alias '*{event.anchor}' refers to an anchor",
                    )
                )
            elif kind is _DocumentStartEvent:
                documents += 1
                if documents == 2:
                    building = False
                    problems.append(
                        diag(
                            "multiple_documents",
                            (display, *_mark(event.start_mark)),
                            "a second YAML document starts here",
                        )
                    )
    except yaml.MarkedYAMLError as exc:
        # an unclosed quote, bracket or brace is reported where it starts (libyaml notices it
        # only where it gives up, often the end of the file); anything else where it was found
        unclosed = exc.context_mark is not None and (exc.context or "").startswith(
            ("while scanning a quoted", "while parsing a flow")
        )
        mark = exc.context_mark if unclosed else (exc.problem_mark or exc.context_mark)
        line, column = _mark(mark) if mark is not None else (1, 1)
        what = exc.problem or "invalid YAML"
        if unclosed and exc.problem_mark is not None:
            end_line, end_column = _mark(exc.problem_mark)
            thing = (
                (exc.context or "").removeprefix("while scanning ").removeprefix("while parsing ")
            )
            problems.append(
                diag(
                    "yaml_syntax",
                    (display, line, column),
                    f"{thing} starts here and is never closed ({what} at line {end_line}, "
                    f"column {end_column})",
                    "close it on the line it belongs to",
                )
            )
            return problems, shape, root
        if "nesting depth" in what:  # libyaml's own limit, met while scanning ahead
            problems.append(
                diag(
                    "nesting_too_deep",
                    (display, line, column),
                    f"the YAML nests more than {MAX_DEPTH} levels deep",
                )
            )
            return problems, shape, _NOTHING
        opened = _open_quote(doc.text, exc.problem_mark or exc.context_mark)
        if opened is not None:
            problems.append(
                diag(
                    "yaml_syntax",
                    (display, *opened),
                    f"a quoted value starts here and is never closed on its line (the YAML "
                    f"breaks at line {line}, column {column}: {what})",
                    "the quote opened here is never closed on this line: close it",
                )
            )
            return problems, shape, root
        hint = None
        if exc.context == "while scanning a simple key" and exc.context_mark is not None:
            # the key that lacks its ':' is where the scan started, not the next line
            line, column = _mark(exc.context_mark)
            hint = "add `: ` after the key"
        if exc.context:
            what = f"{exc.context}: {what}"
        problems.append(diag("yaml_syntax", (display, line, column), what, hint))
    except yaml.YAMLError as exc:  # a reader error without a mark
        problems.append(diag("yaml_syntax", (display, 1, 1), str(exc).splitlines()[0]))
    return problems, shape, root


def _open_quote(text: str, error: Any) -> tuple[int, int] | None:
    """Where the last quoted scalar before the syntax error at ``error`` starts, when it runs
    past its line in block context up to the error: a quote left open that libyaml read on to
    the next quote (often a later line's), so that it gave up far from the line to fix."""
    if error is None:
        return None
    found = None
    flow = 0
    try:
        for token in yaml.scan(text, Loader=_Loader):
            start = token.start_mark
            if (start.line, start.column) >= (error.line, error.column):
                break
            kind = type(token)
            if kind in (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken):
                flow += 1
            elif kind in (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken):
                flow = max(flow - 1, 0)
            elif (
                isinstance(token, yaml.ScalarToken)
                and not flow
                and token.style in ('"', "'")
                and token.end_mark.line > start.line
            ):
                # it ends where the YAML breaks (or the line before): a quoted value that spans
                # lines and ends well before the break is valid, and not the fault
                found = _mark(start) if token.end_mark.line >= error.line - 1 else None
    except yaml.YAMLError:
        pass  # the scanner stops where the parser did, or sooner
    return found


def _key(
    event: Any,
    collection: bool,
    tag: str,
    frame: list[Any],
    doc: Document,
    shape: list[Diagnostic],
) -> Any:
    """Check one mapping key; returns the key, or the marker for what to leave out."""
    key_loc = (doc.file, *_mark(event.start_mark))
    if collection:
        shape.append(diag("non_string_key", key_loc, "a collection is used as a key"))
        return _SKIP_KEY
    if tag == MERGE:
        shape.append(
            diag(
                "non_string_key",
                key_loc,
                "merge keys ('<<') are not allowed",
                "write the merged keys out in full",
            )
        )
        return _SKIP_VALUE
    if tag == AMBIGUOUS:
        old, new = readings(event.value)
        shape.append(
            diag(
                "non_string_key",
                key_loc,
                f"key '{event.value}' is {reading(old)} in YAML 1.1 but {reading(new)} in YAML 1.2",
                f'quote it ("{event.value}")',
            )
        )
        return _SKIP_VALUE
    if tag != STR:
        kind = TYPE_NAMES.get(tag, "not a string")
        shape.append(diag("non_string_key", key_loc, f"key '{event.value}' is read as {kind}"))
        return _SKIP_VALUE
    key = event.value
    if key in frame[0]:
        first = doc.key_positions[(*frame[1], key)]
        shape.append(
            diag(
                "duplicate_yaml_key",
                key_loc,
                f"key '{key}' is already defined at line {first[0]}, column {first[1]}",
            )
        )
        return _SKIP_VALUE
    doc.key_positions[(*frame[1], key)] = _mark(event.start_mark)
    return key


def _explicit_tag(event: Any) -> bool:
    tag = getattr(event, "tag", None)
    if tag is None or tag == "!":
        return False
    if isinstance(event, yaml.ScalarEvent):
        return not (event.implicit[0] or event.implicit[1])
    return not bool(event.implicit)
