"""The SchemaPort contract's types as pydantic models.

``model_dump(mode="json", by_alias=True)`` of each model is SchemaPort's JSON shape, key order
included (``providerId``, ``toolName``, ``docsUrl``, ``compile: {supported, lossy, detail}``); keys
SchemaPort leaves out when unset (``docsUrl``, ``output``, ``description``, probe details) are
left out here too.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

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
    """A tool as the developer writes it once: a name, a description and a JSON Schema.

    An MCP ``Tool``'s other fields (``title``, ``outputSchema``, ``annotations``, ``icons``,
    ``_meta``) are held as given: the ``mcp`` target writes them out unchanged; the other
    targets' tool shapes have no place for them.
    """

    _omit_none = frozenset(
        {"description", "title", "output_schema", "annotations", "icons", "meta"}
    )
    name: str = Field(description="The tool's name.")
    title: str | None = Field(default=None, description="MCP: a name for people to read.")
    description: str | None = Field(default=None, description="What the tool does, for the model.")
    input_schema: dict[str, Any] = Field(
        description="The JSON Schema of the tool's arguments.",
    )
    output_schema: dict[str, Any] | None = Field(
        default=None, description="MCP: the JSON Schema of the tool's structured result."
    )
    annotations: dict[str, Any] | None = Field(
        default=None, description="MCP: hints about the tool's behaviour (ToolAnnotations)."
    )
    icons: list[Any] | None = Field(default=None, description="MCP: icons to show for the tool.")
    meta: dict[str, Any] | None = Field(
        default=None, alias="_meta", description="MCP: the tool's `_meta` object."
    )


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


class CompileResult(_Shape):
    """A compile verdict: the output when ``ok``, every change and the surviving diagnostics."""

    _omit_none = frozenset({"output"})
    provider_id: str = Field(
        description="The target's id.",
    )
    tool_name: str = Field(description="The tool's name.")
    ok: bool = Field(description="Whether an output was produced.")
    output: dict[str, Any] | None = Field(default=None, description="The provider-native tool.")
    transformations: tuple[Transformation, ...] = Field(description="Every change, in order.")
    diagnostics: tuple[Diagnostic, ...] = Field(description="What survived compilation.")

    @property
    def lossy(self) -> bool:
        """Whether any transformation weakened the schema (SchemaPort's ``isLossy``)."""
        return any(t.lossy for t in self.transformations)


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
