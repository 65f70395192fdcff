"""The SchemaPort contract's types as pydantic models.

``model_dump(mode="json", by_alias=True)`` of each model is SchemaPort's JSON shape, key order
included (``providerId``, ``toolName``, ``docsUrl``, ``compile: {supported, lossy, detail}``); keys
SchemaPort leaves out when unset (``docsUrl``, ``output``, ``description``, probe details) are
left out here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer
from pydantic.alias_generators import to_camel

__all__ = [
    "CanonicalTool",
    "CompileAbility",
    "CompileResult",
    "Diagnostic",
    "DiagnosticSeverity",
    "DocReference",
    "ProbeErrorKind",
    "ProbeResult",
    "ProbeStatus",
    "ProviderError",
    "Transformation",
    "ValidationIssue",
]

_T = TypeVar("_T", bound=BaseModel)
DiagnosticSeverity = Literal["error", "warning", "info"]
ProbeStatus = Literal["accepted", "rejected", "error", "skipped"]
ProbeErrorKind = Literal[
    "missing-credentials",
    "authentication",
    "model-not-found",
    "rate-limit",
    "network",
    "compile-refused",
    "unsupported",
    "unknown",
]


_new = object.__new__
# The instance-``__dict__`` descriptor every pydantic model uses (``BaseModel.__slots__``).
_REAL_DICT: Any = BaseModel.__dict__["__dict__"]
# The setters of ``BaseModel``'s slots, called directly: a record is built without the attribute
# lookup ``object.__setattr__`` makes per field (a third of a record's cost).
_set_dict: Any = _REAL_DICT.__set__
_set_fields_set: Any = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra: Any = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private: Any = BaseModel.__dict__["__pydantic_private__"].__set__
# The key under which a lazily built :class:`CompileResult` keeps the thunk for its records.
_PENDING = "\x00pending"


def fast_build(cls: type[_T], **values: Any) -> _T:
    """An instance of a contract model from values already known to be valid (no validation).

    The engine builds thousands of records per schema; this skips pydantic's validation, which
    ``model_construct`` would also skip, at a fraction of its cost. Every field must be given.
    """
    return build_from(cls, values)


def build_from(cls: type[_T], values: dict[str, Any], fields_set: set[str] | None = None) -> _T:
    """:func:`fast_build` with the values as a dict (which becomes the instance's ``__dict__``);
    ``fields_set`` names the fields given explicitly (all of ``values`` by default)."""
    obj = _new(cls)
    _set_dict(obj, values)
    _set_fields_set(obj, set(values) if fields_set is None else fields_set)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


class _Shape(BaseModel):
    """A frozen contract record; fields in ``_omit_none`` are left out of dumps when None."""

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, frozen=True, extra="forbid"
    )
    _omit_none: ClassVar[frozenset[str]] = frozenset()

    @model_serializer(mode="wrap")
    def _drop_unset(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict) and self._omit_none:
            names = {
                name: (info.serialization_alias or info.alias or name)
                for name, info in type(self).model_fields.items()
            }
            for name in self._omit_none:
                for key in (name, names.get(name, name)):
                    if key in data and data[key] is None:
                        del data[key]
        return data


class CanonicalTool(_Shape):
    """A tool as the developer writes it once: a name, a description and a JSON Schema."""

    _omit_none = frozenset({"description"})
    name: str = Field(description="The tool's name.")
    description: str | None = Field(default=None, description="What the tool does, for the model.")
    input_schema: dict[str, Any] = Field(
        description="The JSON Schema of the tool's arguments.",
    )


class PlainTool:
    """A tool given in the plain JSON shape, read as it is: what a compile reads of a
    :class:`CanonicalTool` (``name``, ``description``, ``input_schema``) without building one.

    ``compile_tool`` neither keeps the tool nor changes its schema, so it need not copy the
    input into a model first (about 0.6 us of a small tool's 20-30 us compile). Its fields are
    slots: the run reads them per tool."""

    __slots__ = ("description", "input_schema", "name")

    name: str  # The tool's name.
    description: str | None  # What the tool does, for the model.
    input_schema: dict[str, Any]  # The JSON Schema of the tool's arguments.


def plain_parts(value: Any) -> PlainTool | None:
    """``value`` read as a :class:`PlainTool` when it is the plain JSON shape (a dict with a
    string ``name``, an optional string ``description`` and an object ``inputSchema`` with
    string keys, nothing else); None when it needs full validation. The fields are what
    ``CanonicalTool.model_validate`` gives for such input (the schema is the input's own dict)."""
    if value.__class__ is not dict or not _PLAIN_TOOL_KEYS.issuperset(value):
        return None
    name = value.get("name")
    schema = value.get("inputSchema")
    description = value.get("description")
    if name.__class__ is not str or schema.__class__ is not dict:
        return None
    if description is not None and description.__class__ is not str:
        return None
    for key in schema:  # a key that is not a plain string
        if key.__class__ is not str:
            return None
    parts = _new(PlainTool)
    parts.name = name
    parts.description = description
    parts.input_schema = schema
    return parts


def plain_tool(value: Any) -> CanonicalTool | None:
    """``value`` as a :class:`CanonicalTool` without pydantic when it is the plain JSON shape
    (see :func:`plain_parts`); None when it needs full validation. The result is what
    ``CanonicalTool.model_validate`` gives for such input."""
    parts = plain_parts(value)
    if parts is None:
        return None
    name, description, schema = parts.name, parts.description, parts.input_schema
    fields = {"name", "input_schema", "description"} if "description" in value else _NAME_SCHEMA
    return build_from(
        CanonicalTool,
        {"name": name, "description": description, "input_schema": dict(schema)},
        set(fields),
    )


_PLAIN_TOOL_KEYS = frozenset({"name", "description", "inputSchema"})
_NAME_SCHEMA = frozenset({"name", "input_schema"})


class CompileAbility(_Shape):
    """Whether compiling can resolve a diagnostic, at what cost, and how."""

    supported: bool = Field(description="Whether compiling produces an output despite it.")
    lossy: bool = Field(description="Whether that output accepts values the canonical rejects.")
    detail: str = Field(description="What compiling does about it.")


class Diagnostic(_Shape):
    """One finding of a target's rules about one tool."""

    _omit_none = frozenset({"docs_url"})
    provider_id: str = Field(
        description="The target's id.",
    )
    tool_name: str = Field(description="The tool's name.")
    severity: DiagnosticSeverity = Field(description="error, warning or info.")
    code: str = Field(description="The rule's stable code, `<target>/<name>`.")
    message: str = Field(description="What is wrong, in a sentence.")
    path: str = Field(description="Where, as a joinPath path from `inputSchema`.")
    compile: CompileAbility = Field(description="What compiling does about it.")
    docs_url: str | None = Field(
        default=None,
        description="The official page.",
    )


class Transformation(_Shape):
    """One change compiling made."""

    code: str = Field(description="What kind of change.")
    path: str = Field(description="Where.")
    detail: str = Field(description="What exactly changed.")
    lossy: bool = Field(description="Whether it lets more argument values through.")


def _result_dict(self: CompileResult) -> dict[str, Any]:
    data: dict[str, Any] = _REAL_DICT.__get__(self)
    if _PENDING in data:
        _build_records(data)
    return data


def _build_records(data: dict[str, Any]) -> None:
    """Build a deferred result's records in place, after its other fields (their declared
    order): ``build(args)`` makes them."""
    build, args = data.pop(_PENDING)
    data["transformations"], data["diagnostics"] = build(args)


# the fields a deferred result sets explicitly (``output`` only when there is one): one set of
# each, shared by every deferred result (frozen models; pydantic's ``model_copy`` and ``copy``
# copy the set before they would change it)
_SET_WHEN_REFUSED: set[str] = {"provider_id", "tool_name", "ok", "transformations", "diagnostics"}
_SET_WHEN_OK: set[str] = _SET_WHEN_REFUSED | {"output"}


class CompileResult(_Shape):
    """A compile verdict: the output when ``ok``, every change and the surviving diagnostics.

    ``compile_tool`` decides every record (which rule fired where, severity, lossiness) before it
    returns, but builds the :class:`Transformation` and :class:`Diagnostic` objects and formats
    their wording on first access (attribute, dump, comparison, copy or pickle all see the same
    values): most callers only look at ``ok`` and ``output``.
    """

    _omit_none = frozenset({"output"})
    provider_id: str = Field(
        description="The target's id.",
    )
    tool_name: str = Field(description="The tool's name.")
    ok: bool = Field(description="Whether an output was produced.")
    output: dict[str, Any] | None = Field(default=None, description="The provider-native tool.")
    transformations: tuple[Transformation, ...] = Field(description="Every change, in order.")
    diagnostics: tuple[Diagnostic, ...] = Field(description="What survived compilation.")

    # Every explicit ``__dict__`` read (pydantic's serializer, ``==``, ``repr``, ``model_copy``,
    # pickling, ``vars``) materializes pending records first; plain attribute reads of the eager
    # fields go straight to the instance dict, and of the two record fields through the
    # properties set below the class.
    __dict__ = property(_result_dict, _REAL_DICT.__set__)

    @classmethod
    def deferred(
        cls,
        provider_id: str,
        tool_name: str,
        ok: bool,
        output: dict[str, Any] | None,
        records: Callable[[Any], tuple[tuple[Transformation, ...], tuple[Diagnostic, ...]]],
        args: Any = None,
        /,
    ) -> CompileResult:
        """A result whose transformations and diagnostics ``records(args)`` builds on first
        access (a function and its argument, not a closure: a result is made per compile).
        Positional only: it is called once per compile."""
        values: dict[str, Any] = {
            "provider_id": provider_id,
            "tool_name": tool_name,
            "ok": ok,
            "output": output if ok else None,
            _PENDING: (records, args),
        }
        obj = _new(cls)
        _set_dict(obj, values)
        _set_fields_set(obj, _SET_WHEN_OK if ok else _SET_WHEN_REFUSED)
        _set_extra(obj, None)
        _set_private(obj, None)
        return obj

    @property
    def lossy(self) -> bool:
        """Whether any transformation weakened the schema (SchemaPort's ``isLossy``)."""
        return any(t.lossy for t in self.transformations)


class _RecordsField:
    """A read of ``transformations`` or ``diagnostics`` that builds pending records first.

    Set on the class after pydantic made it, so the field's value is reached without the failed
    instance-attribute lookup (and its AttributeError) that falling back to ``__getattr__``
    costs. It defines no ``__set__``, so once the records are built (or when the result was
    validated) the instance's own value is read straight from its dict, without a call."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.__doc__ = CompileResult.model_fields[name].description

    def __get__(self, obj: CompileResult | None, owner: Any = None) -> Any:
        if obj is None:
            return self
        data = _REAL_DICT.__get__(obj)
        if _PENDING in data:
            _build_records(data)
        return data[self.name]


for _name in ("transformations", "diagnostics"):
    type.__setattr__(CompileResult, _name, _RecordsField(_name))


class DocReference(_Shape):
    """An official source a target's rules were read from."""

    title: str = Field(description="The page's title.")
    url: str = Field(description="Its address.")


class ValidationIssue(_Shape):
    """A reason a value is not a canonical tool."""

    message: str = Field(description="What is wrong.")
    path: str = Field(description="Where.")


class ProviderError(_Shape):
    """What a provider said when a probe request failed."""

    _omit_none = frozenset({"status", "type"})
    message: str = Field(description="The provider's message, secrets redacted.")
    status: int | None = Field(default=None, description="The HTTP status, when there was one.")
    type: str | None = Field(default=None, description="The provider's error type or code.")


class ProbeResult(_Shape):
    """What one probe of one tool against one hosted API found."""

    _omit_none = frozenset(
        {
            "model",
            "arguments_valid",
            "argument_errors",
            "arguments_received",
            "provider_error",
            "error_kind",
        }
    )
    provider_id: str = Field(
        description="The target's id.",
    )
    tool_name: str = Field(description="The tool's name.")
    status: ProbeStatus = Field(description="accepted, rejected, error or skipped.")
    model: str | None = Field(default=None, description="The model probed.")
    schema_accepted: bool = Field(
        description="Whether the API accepted the tool definition.",
    )
    tool_call_returned: bool = Field(
        description="Whether the model called the tool.",
    )
    arguments_valid: bool | None = Field(
        default=None,
        description="Whether the arguments fit the canonical schema.",
    )
    argument_errors: tuple[str, ...] | None = Field(
        default=None,
        description="Why they do not, sorted.",
    )
    arguments_received: Any = Field(
        default=None,
        description="The arguments the model sent.",
    )
    provider_error: ProviderError | None = Field(
        default=None,
        description="The provider's error, when the call failed.",
    )
    error_kind: ProbeErrorKind | None = Field(
        default=None,
        description="Why the probe could not give a verdict.",
    )
    notes: tuple[str, ...] = Field(default=(), description="Anything a reader should know.")
