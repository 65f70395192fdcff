"""What a fresh process imports on the cold path: ``import provcat`` + the first resolution.

``make bench`` times the cold path; these tests keep what it imports from growing again. The
expected module lists are regression guards of this repository's own import graph (written down
from it on purpose, not taken from an outside source): a change that pulls another module onto
the cold path must change them here, deliberately.

A pydantic model class needs ``pydantic.fields`` (and with it ``pydantic.types``,
``annotated_types``, ``secrets``, ...), so the baseline that ``match_endpoint`` is compared with is
a process that defines one model; everything it imports beyond that baseline must be provcat's own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import FrozenInstanceError
from types import MappingProxyType

import pytest

from provcat.catalog.snapshot import CatalogSnapshot

# a process that only defines a pydantic model: what any pydantic-based catalog imports
_PYDANTIC_BASELINE = (
    "from pydantic import BaseModel, ConfigDict\n"
    "class Model(BaseModel):\n"
    "    model_config = ConfigDict(defer_build=True)\n"
    "    field: int = 0\n"
)

# provcat's own modules on the path of import provcat + match_endpoint("openai", "chat")
MATCH_PATH = [
    "provcat",
    "provcat.catalog",
    "provcat.catalog.lazy",
    "provcat.catalog.load",
    "provcat.catalog.publish",
    "provcat.catalog.snapshot",
    "provcat.catalog.specs",
    "provcat.config",
    "provcat.endpoint",
    "provcat.errors",
    "provcat.keys",
    "provcat.lazy_names",
    "provcat.match",
    "provcat.protocols",
    "provcat.registry",
    "provcat.resolution",
    "provcat.snapshot_format",
    "provcat_catalog",
    "provcat_catalog.data",
]

# ... and of import provcat + resolve("openai", "chat"): the record, nothing built
RESOLVE_PATH = [
    "provcat",
    "provcat.catalog",
    "provcat.catalog.lazy",
    "provcat.catalog.publish",
    "provcat.catalog.snapshot",
    "provcat.catalog.specs",
    "provcat.errors",
    "provcat.keys",
    "provcat.lazy_names",
    "provcat.registry",
    "provcat.resolution",
    "provcat.snapshot_format",
    "provcat_catalog",
    "provcat_catalog.data",
]

# each one was on the cold path once, or would be a plausible regression
NEVER_ON_THE_COLD_PATH = [
    "provcat.agent_result",  # agentic endpoints only
    "provcat.api_errors",  # the errors of a call (APIError and its kinds)
    "provcat.catalog.inspect",  # list_providers()
    "provcat.catalog.keyspace",  # a custom catalog source's validation
    "provcat.catalog.module_spec",  # inspection
    "provcat.catalog.policy",  # model-spec parsing
    "provcat.compat",  # openai_compatible=True, the implicit fallback
    "provcat.diagnostic",  # a provider that failed to load
    "provcat.inventory",  # a request default that names a model
    "provcat.protocols.openai_chat",  # the request model: loaded when first read, not to build
    "provcat.protocols.openai_voice",
    "provcat.redact",  # the sanitizer: for a message, a summary or a repr, not to build
    "provcat.request",  # the request models' base and the check of a caller's request defaults
    "provcat.sdk_deviation",  # request models that record one, the drift check
    "provcat_catalog.models",  # the model inventory
    "provcat_catalog.records",  # the snapshot's record types: for type checkers
    "provcat_catalog.targets",  # the tool-schema compiler
    "difflib",  # "did you mean" hints of errors
    "generator",
    "httpx",
    "jinja2",
    "jsonschema",
    "yaml",
]


def _modules(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


def _ours(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in ("provcat", "provcat_catalog"))


def test_match_endpoint_imports_only_provcat_beyond_a_pydantic_model() -> None:
    baseline = _modules(_PYDANTIC_BASELINE)
    cold = _modules("import provcat\nprovcat.match_endpoint('openai', 'chat')")
    assert _ours(cold) == MATCH_PATH
    assert sorted(cold - baseline - set(MATCH_PATH)) == []
    assert sorted(set(NEVER_ON_THE_COLD_PATH) & cold) == []


def test_resolving_a_record_imports_no_pydantic_and_no_provider() -> None:
    cold = _modules("import provcat\nprovcat.resolve('openai', 'chat')")
    assert _ours(cold) == RESOLVE_PATH
    assert sorted(m for m in cold if m.split(".")[0] in ("pydantic", "pydantic_core")) == []
    assert sorted(set(NEVER_ON_THE_COLD_PATH) & cold) == []


def test_the_names_moved_off_the_cold_path_still_import_from_their_old_homes() -> None:
    """Re-exported where they were defined before, and loaded when first named."""
    code = (
        "from provcat.catalog.specs import (CatalogDiagnosticCode, EffortMode, "
        "ProviderDiagnostic, ProviderModelPolicy, ProviderModuleSpec)\n"
        "from provcat.endpoint import AgentResult\n"
        "from provcat.request import DeviationAspect, SdkDeviation\n"
        "from provcat.errors import APIError, RateLimitError\n"
        "import provcat.catalog as c, provcat.errors as e\n"
        "print(c.ProviderModelPolicy is ProviderModelPolicy, ProviderModelPolicy.__module__,\n"
        "      ProviderModuleSpec.__module__, ProviderDiagnostic.__module__,\n"
        "      AgentResult.__module__, SdkDeviation.__module__,\n"
        "      e.APIError is APIError and issubclass(RateLimitError, e.APIError),\n"
        "      RateLimitError.__module__, all(hasattr(e, n) for n in e.__all__))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [
        "True",
        "provcat.catalog.policy",
        "provcat.catalog.module_spec",
        "provcat.diagnostic",
        "provcat.agent_result",
        "provcat.sdk_deviation",
        "True",
        "provcat.api_errors",
        "True",  # every name the module lists
    ]


def test_the_hand_written_snapshot_record_keeps_the_dataclass_behaviour() -> None:
    """CatalogSnapshot is written out instead of made by @dataclass (a cold-start cost); it must
    still be frozen, compare its facts only, and start every process's state empty."""

    def make(fingerprint: str) -> CatalogSnapshot:
        return CatalogSnapshot(
            MappingProxyType({}), MappingProxyType({"a": "a"}), {}, {}, fingerprint, True
        )

    one, same, other = make("f1"), make("f1"), make("f2")
    assert one == same and one != other and one != ("f1",)
    one.memo.setdefault("a", {})  # state is mutated in place and left out of ==
    one.loaded_modules.add("a")
    assert one == same and same.memo == {} and same.loaded_modules == set()
    assert one.bindings is not same.bindings
    for name in ("fingerprint", "memo", "anything"):
        with pytest.raises(FrozenInstanceError):
            setattr(one, name, None)
        with pytest.raises(FrozenInstanceError):
            delattr(one, name)
    with pytest.raises(TypeError):
        hash(one)  # its mappings are unhashable, as the dataclass's hash of them was
    assert repr(other).startswith("CatalogSnapshot(providers=mappingproxy({}), provider_index=")
    assert repr(other).endswith(
        "fingerprint='f2', trusted=True, unavailable={}, bindings={}, "
        "loaded_modules=set(), factories={}, memo={}, parsed_specs={}, "
        "applied_specs={})"
    )


def test_the_written_out_spec_methods_match_what_dataclass_generates() -> None:
    """ProviderEndpointSpec writes its __init__, __repr__, __eq__ and __hash__ (generating them
    for 24 fields was a cold-start cost), and its frozen methods (__setattr__, __delattr__,
    __getstate__, __setstate__: ``frozen=True`` compiles two of them from source). The oracle is
    Python's own generated methods: a dataclass made by ``make_dataclass`` with the same fields,
    frozen, slotted and keyword-only."""
    import copy
    from dataclasses import field, fields, make_dataclass, replace

    from provcat.catalog.specs import EndpointType, ProviderEndpointSpec

    reference = make_dataclass(
        "ProviderEndpointSpec",
        [
            (f.name, f.type, field(default=f.default, default_factory=f.default_factory))
            for f in fields(ProviderEndpointSpec)
        ],
        frozen=True,
        slots=True,
        kw_only=True,
    )
    values: dict[str, object] = {
        "provider": "p",
        "endpoint": "Chat",
        "key": "chat",
        "endpoint_type": EndpointType.API,
        "endpoint_class": None,
        "protocol": "openai-chat",
        "request_options": None,
        "endpoint_aliases": ("c",),
        "request_defaults": MappingProxyType({"model": "m"}),
        "path": "chat",
        "method": "POST",
        "base_url": "https://example.invalid/v1",
        "auth_type": "bearer",
        "api_key_env": "P_KEY",
        "content_type": "application/json",
        "timeout": 60.0,
        "default_headers": MappingProxyType({}),
        "requires_tokens": True,
        "idempotent_retries": False,
        "serialize_by_alias": False,
        "allow_local_network": False,
        "docs_url": "https://example.invalid/docs",
    }
    ours, theirs = ProviderEndpointSpec(**values), reference(**values)  # type: ignore[arg-type]
    assert repr(ours) == repr(theirs)
    assert ours == ProviderEndpointSpec(**values)  # type: ignore[arg-type]
    assert ours != replace(ours, timeout=61.0) and ours != theirs  # another class: not equal
    assert replace(replace(ours, timeout=61.0), timeout=60.0) == ours
    refusals: list[list[str]] = []
    for spec in (ours, theirs):
        with pytest.raises(TypeError):  # its two mappings make every spec unhashable
            hash(spec)
        refused: list[str] = []
        for change in (
            lambda s: setattr(s, "provider", "q"),
            lambda s: delattr(s, "timeout"),
        ):
            with pytest.raises(FrozenInstanceError) as caught:
                change(spec)
            refused.append(str(caught.value))
        refusals.append(refused)
    assert refusals[0] == refusals[1]
    assert ours.__getstate__() == theirs.__getstate__()  # type: ignore[attr-defined]
    # (pickle too goes through __getstate__; the reference class is not importable to compare)
    for duplicate in (copy.copy, copy.deepcopy):
        outcomes = []
        for spec in (ours, theirs):
            try:
                again = duplicate(spec)
            except Exception as exc:  # as the generated methods fail (a mappingproxy field)
                outcomes.append(type(exc))
            else:
                assert again is not spec and repr(again) == repr(spec)
                outcomes.append(type(again) is type(spec))
        assert outcomes[0] == outcomes[1], duplicate
    with pytest.raises(TypeError):
        ProviderEndpointSpec(**{k: v for k, v in values.items() if k != "method"})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("home", "cls", "values"),
    [
        ("provcat.catalog.snapshot", "Binding", (object, {"a": 1})),
        (
            "provcat.catalog.snapshot",
            "ProviderEntry",
            ("p", "P", ("q",), None, MappingProxyType({}), MappingProxyType({})),
        ),
        ("provcat.protocols", "Protocol", ("p", "m:C", None, "Summary.", "https://x.invalid")),
    ],
)
def test_the_written_out_named_tuples_behave_as_namedtuple_makes_them(
    home: str, cls: str, values: tuple[object, ...]
) -> None:
    """Binding, ProviderEntry and Protocol are written out (NamedTuple compiled each one's
    __new__ on every cold start). The oracle is collections.namedtuple with the same fields."""
    import copy
    import importlib
    import pickle
    from collections import namedtuple

    ours_cls = getattr(importlib.import_module(home), cls)
    reference = namedtuple(cls, ours_cls._fields)
    ours, theirs = ours_cls(*values), reference(*values)
    assert ours == theirs == values and tuple(ours) == values and isinstance(ours, tuple)
    assert repr(ours) == repr(theirs)
    assert ours_cls(**dict(zip(ours_cls._fields, values, strict=True))) == ours
    for name in ours_cls._fields:
        assert getattr(ours, name) is getattr(theirs, name)
        with pytest.raises(AttributeError):
            setattr(ours, name, None)
        with pytest.raises(AttributeError):
            setattr(theirs, name, None)
    with pytest.raises(AttributeError):
        ours.other = 1  # no __dict__, as a namedtuple has none
    with pytest.raises(TypeError):
        ours_cls(*values[:-1])
    assert copy.copy(ours) == ours and type(copy.copy(ours)) is ours_cls
    if cls != "ProviderEntry":  # its values pickle (the entry's mappings do not, as for namedtuple)
        again = pickle.loads(pickle.dumps(ours))
        assert again == ours and type(again) is ours_cls
