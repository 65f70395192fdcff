"""Every diagnostic code the generator can report, with its severity and default hint.

Codes are stable: a code is never renamed or reused for another meaning. New checks get new
codes. The generated ``docs/diagnostics.md`` lists this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Code:
    """A diagnostic code: its name, severity and what it means."""

    name: str
    severity: Severity
    stage: str
    summary: str
    hint: str


_CODES = (
    # loader: the file itself and its YAML
    Code("file_unreadable", "error", "loader", "the file cannot be read", "check permissions"),
    Code(
        "symlink_not_allowed",
        "error",
        "loader",
        "catalog files may not be symbolic links",
        "replace the link with the file itself",
    ),
    Code(
        "not_regular_file",
        "error",
        "loader",
        "a catalog file is not a regular file (a named pipe, a socket, a device)",
        "replace it with a regular file, or move it out of the catalog folder",
    ),
    Code(
        "file_too_large",
        "error",
        "loader",
        "the file is larger than the size cap (1 MiB)",
        "a provider is one file, so it must fit the cap: remove long comments and other text "
        "the catalog does not need",
    ),
    Code(
        "invalid_utf8",
        "error",
        "loader",
        "the file is not valid UTF-8",
        "re-save the file as UTF-8",
    ),
    Code(
        "empty_file",
        "error",
        "loader",
        "the file holds no YAML document",
        "add the provider's fields or delete the file",
    ),
    Code(
        "tab_character",
        "error",
        "loader",
        "a tab character in the file",
        "YAML is indented with spaces; replace the tab",
    ),
    Code(
        "yaml_syntax",
        "error",
        "loader",
        "the YAML cannot be parsed",
        "fix the syntax at the position",
    ),
    Code(
        "multiple_documents",
        "error",
        "loader",
        "more than one YAML document in one file",
        "keep one document per file; remove the extra '---'",
    ),
    Code(
        "nesting_too_deep",
        "error",
        "loader",
        "the YAML nests deeper than the loader allows",
        "flatten the structure",
    ),
    Code(
        "anchor_not_allowed",
        "error",
        "loader",
        "YAML anchors and aliases are not allowed",
        "write the value out in full; every value must be reviewable where it is used",
    ),
    Code(
        "yaml_tag_not_allowed",
        "error",
        "loader",
        "explicit YAML tags are not allowed",
        "remove the tag; quote the value if it must be a string",
    ),
    Code(
        "duplicate_yaml_key",
        "error",
        "loader",
        "a mapping repeats a key",
        "remove or rename one of the two entries",
    ),
    Code(
        "non_string_key",
        "error",
        "loader",
        "a mapping key is not a string",
        "quote the key (YAML reads yes/no/on/off/null and numbers as non-strings)",
    ),
    Code(
        "ambiguous_yaml_value",
        "error",
        "loader",
        "a plain value YAML 1.1 and YAML 1.2 read differently (yes/no/on/off, a leading zero "
        "as in 010, a base-60 number as in 1:30, 1_000, 0b/0o numbers, signed hex, an exponent "
        "without both a dot and a sign as in 1e-3, -.5); the catalog is read as YAML 1.2",
        "write what the field takes: the hint says how (a quoted decimal, true or false, a "
        "number, or the text quoted)",
    ),
    Code(
        "unexpected_file",
        "error",
        "loader",
        "a file or folder in a catalog folder that is not a '.yaml' file, or a YAML file "
        "outside providers/ and schema-targets/, which would not be read (hidden files and "
        "editor backups ending in ~ are skipped)",
        "rename it to <name>.yaml or move it out of the catalog folder",
    ),
    # JSON Schema
    Code(
        "missing_schema_reference",
        "error",
        "schema",
        "the file does not name its JSON Schema for editors",
        "add '# yaml-language-server: $schema=../../schemas/provider.schema.json' as the first line",
    ),
    Code(
        "unknown_field",
        "error",
        "schema",
        "a field the schema does not define",
        "check the spelling against the schema",
    ),
    Code("missing_field", "error", "schema", "a required field is missing", "add the field"),
    Code(
        "schema_violation",
        "error",
        "schema",
        "a value does not match the schema",
        "see the field's description in schemas/",
    ),
    # whole-set validation: ADR-0028 codes
    Code(
        "empty_key",
        "error",
        "catalog",
        "a provider, endpoint or alias key is empty after strip()",
        "give the key a name or remove it",
    ),
    Code(
        "self_alias",
        "error",
        "catalog",
        "an alias canonicalizes to its own canonical key",
        "remove the alias: case and surrounding whitespace already match",
    ),
    Code(
        "duplicate_provider_key",
        "error",
        "catalog",
        "a provider key or alias is claimed twice in the global provider key space (an alias "
        "that spells a provider's key is the one reported)",
        "each provider spelling may name exactly one provider; remove or rename one",
    ),
    Code(
        "duplicate_endpoint_key",
        "error",
        "catalog",
        "an endpoint key or alias is claimed twice within one provider (an alias that spells "
        "an endpoint's key is the one reported)",
        "each endpoint spelling may name exactly one endpoint of the provider",
    ),
    Code(
        "inconsistent_provider_aliases",
        "error",
        "catalog",
        "declarations of one provider disagree on its alias set",
        "declare the provider's aliases once",
    ),
    Code(
        "invalid_endpoint_class",
        "error",
        "catalog",
        "the endpoint class is missing or not an Endpoint subclass",
        "name a class of the provider's module that subclasses provcat.endpoints.endpoint.Endpoint",
    ),
    Code(
        "invalid_request_options",
        "error",
        "catalog",
        "the request model is missing, not a pydantic model, or its factory failed",
        "name a pydantic BaseModel subclass (or a factory returning one)",
    ),
    Code(
        "invalid_request_default",
        "error",
        "catalog",
        "a request default is not a field of the request model or has an invalid value",
        "use a field the request model declares, with a valid value",
    ),
    Code(
        "import_error",
        "error",
        "catalog",
        "the provider's module failed to import",
        "fix the module so that it imports",
    ),
    # whole-set validation: the generator's own
    Code(
        "file_name_mismatch",
        "error",
        "catalog",
        "the provider key differs from the file's stem",
        "rename the file to <provider>.yaml or change the key",
    ),
    Code(
        "case_variant_collision",
        "error",
        "catalog",
        "two spellings differ only in case or surrounding whitespace and so name one key",
        "keys are compared after strip().casefold(), so the two are one key: remove one or "
        "rename it",
    ),
    Code(
        "duplicate_endpoint_class",
        "error",
        "catalog",
        "one class serves two endpoints",
        "give each endpoint its own subclass so its class-bound metadata is unambiguous",
    ),
    Code(
        "endpoint_type_mismatch",
        "error",
        "catalog",
        "an api endpoint names an AgenticEndpoint subclass, or an agentic endpoint does not",
        "make the type and the class agree",
    ),
    Code(
        "missing_base_url",
        "error",
        "catalog",
        "an api endpoint has no base_url",
        "set base_url on the endpoint or in the provider's defaults",
    ),
    Code(
        "bad_base_url",
        "error",
        "catalog",
        "a base_url names no host, carries credentials, a query or a fragment, or is malformed",
        "write the vendor's API root, such as https://api.example.com/v1: the endpoint's path is "
        "appended to it, and keys go in api_key_env, never in the URL",
    ),
    Code(
        "invalid_effort_policy",
        "error",
        "catalog",
        "the effort policy breaks ADR-0028 D5",
        "kwarg mode needs `kwarg` and levels; model_name mode needs levels and no `kwarg`; "
        "none mode takes neither",
    ),
    Code(
        "invalid_policy_kwarg",
        "error",
        "catalog",
        "a policy kwarg is not a field of any request model of the provider",
        "use a field that the provider's request models declare, with a valid value",
    ),
    Code(
        "duplicate_model_alias",
        "error",
        "catalog",
        "a model alias is declared twice across the catalog",
        "each bare model alias may expand to one model",
    ),
    Code(
        "foreign_model_alias",
        "error",
        "catalog",
        "a model alias targets another provider (or none), or is spelled as another provider: "
        "its key or alias, or a `<provider>/<model>` spec of it (aliases are read before the "
        "provider, so that spec would go elsewhere)",
        "an alias that targets another provider: point it at one of this provider's own models; "
        "an alias spelled as another provider: rename it",
    ),
    Code(
        "model_alias_shadows_model",
        "error",
        "catalog",
        "a policy model alias spells a model id, or an inventory alias of another model, of the "
        "same provider: a model spec and the inventory would read it differently",
        "rename the policy alias, or drop it and point the model's own `aliases` at the model",
    ),
    Code(
        "unknown_alias_target",
        "error",
        "catalog",
        "a model alias points to a model the provider's inventory does not list",
        "add the model to `models:` or fix the alias target",
    ),
    Code(
        "model_alias_is_foreign_model",
        "warning",
        "catalog",
        "a policy model alias is spelled as a model id or inventory alias of another provider: "
        "`<provider>/<model>` still names that model, but the bare spelling goes to this "
        "provider",
        "rename the alias so that it does not read as the other provider's model",
    ),
    Code(
        "unknown_effort_rule_model",
        "error",
        "catalog",
        "an effort `model_rules` entry names no model of the provider's inventory as the rule "
        "is matched (effort mode `model_name`: a model id; `kwarg`: an id or alias), so the "
        "rule never applies and the vendor gets the unclamped level",
        "name a model listed under the provider's `models:` (in effort mode `model_name`, by "
        "its id), or add the model there",
    ),
    Code(
        "duplicate_model_key",
        "error",
        "catalog",
        "a model id or model alias is declared twice within one provider",
        "remove or rename one",
    ),
    # models: the inventory under `models:` (generator/models_check.py)
    Code(
        "model_id_whitespace",
        "error",
        "catalog",
        "a model id or alias has surrounding whitespace",
        "remove the spaces: the id is sent to the vendor as written",
    ),
    Code(
        "model_alias_is_model_id",
        "error",
        "catalog",
        "a model alias equals the id of another model of the same provider",
        "drop the alias, or point it at the model it names with `points_to`",
    ),
    Code(
        "unknown_successor",
        "error",
        "catalog",
        "`successor` names no model or alias of the same provider",
        "name a model listed under the provider's `models:`, or add that model",
    ),
    Code(
        "unknown_snapshot",
        "error",
        "catalog",
        "`points_to` names no model of the same provider",
        "add the dated snapshot to `models:` or fix the id",
    ),
    Code(
        "model_reference_cycle",
        "error",
        "catalog",
        "`successor` or `points_to` links lead back to the model they start from",
        "break the cycle: a successor is newer, a snapshot points nowhere",
    ),
    Code(
        "limit_above_context",
        "error",
        "catalog",
        "max output or max input tokens exceed the context window",
        "check the vendor's limits; the context window bounds input and output",
    ),
    Code(
        "invalid_date",
        "error",
        "catalog",
        "a date has the right form but is no calendar day (or month)",
        "write a real date in the form the field takes (YYYY-MM-DD, or YYYY-MM where allowed)",
    ),
    Code(
        "lifecycle_dates_out_of_order",
        "error",
        "catalog",
        "release, deprecation and shutdown dates are not in that order",
        "fix the dates: release <= deprecation <= shutdown",
    ),
    Code(
        "retired_without_shutdown_date",
        "error",
        "catalog",
        "a retired model has no shutdown_date",
        "add the shutdown date the vendor announced",
    ),
    Code(
        "tier_threshold_not_increasing",
        "error",
        "catalog",
        "long-context price tiers are not in strictly increasing threshold order",
        "list tiers from the lowest threshold up, each above the one before",
    ),
    Code(
        "tier_above_context",
        "error",
        "catalog",
        "a price tier's threshold is not below the model's context window",
        "no request can reach the tier; check the threshold and the context window",
    ),
    Code(
        "price_period_ends_before_start",
        "error",
        "catalog",
        "a price period's `until` is on or before its `from`",
        "`from` is the first day the prices hold and `until` the first day they no longer do",
    ),
    Code(
        "price_periods_overlap",
        "error",
        "catalog",
        "a price period starts before the previous one ends",
        "make each period's `from` the previous period's `until`",
    ),
    Code(
        "price_periods_out_of_order",
        "error",
        "catalog",
        "price periods are not in date order",
        "list the periods from the earliest up",
    ),
    Code(
        "price_period_gap",
        "error",
        "catalog",
        "days between two price periods have no price",
        "make the period's `from` the previous `until`, or state why with `gap_before`",
    ),
    Code(
        "price_period_open",
        "error",
        "catalog",
        "a price period other than the first has no `from`, or other than the last no `until`",
        "give the period both days; only the ends of the schedule may be open",
    ),
    Code(
        "default_model_price_change",
        "warning",
        "catalog",
        "a request default or model alias names a model whose price changes within 30 days",
        "check estimates made now against the new price; the change is on the lifecycle page",
    ),
    Code(
        "batch_discount_with_prices",
        "error",
        "catalog",
        "a batch block lists a price beside a stated discount",
        "keep the vendor's one statement: the discount alone, or every batch price listed",
    ),
    Code(
        "batch_price_missing",
        "error",
        "catalog",
        "a batch block that lists prices leaves out one the base lists",
        "list the batch price of every field (cache reads and writes too), or state the discount",
    ),
    Code(
        "fee_conflict",
        "error",
        "catalog",
        "a model's fees of one unit do not pick one fee for every request",
        "give fees of a unit one `when` option each, the same option, and one `default: true`",
    ),
    Code(
        "negative_price",
        "error",
        "catalog",
        "a price is negative",
        "prices (USD per million tokens) and fees (USD per unit) are zero or more",
    ),
    Code(
        "unknown_default_model",
        "error",
        "catalog",
        "a request default or model alias names a model the provider's inventory does not list",
        "use an id or alias from the provider's `models:`, or add the model there",
    ),
    Code(
        "retired_model_in_use",
        "error",
        "catalog",
        "a request default or model alias names a model that is retired (as of the check date)",
        "move it to the model's successor or another current model",
    ),
    Code(
        "deprecated_model_in_use",
        "warning",
        "catalog",
        "a request default or model alias names a deprecated model",
        "move it to the successor before the shutdown date",
    ),
    # schema targets (catalog/schema-targets/*.yaml) and the providers' tool_schema_target
    Code(
        "target_file_name_mismatch",
        "error",
        "targets",
        "the target id differs from the file's stem",
        "rename the file to <id>.yaml or change the id",
    ),
    Code(
        "duplicate_rule_code",
        "error",
        "targets",
        "two rules of one target have the same code",
        "give each rule its own code; codes are stable and never reused",
    ),
    Code(
        "rule_code_prefix",
        "error",
        "targets",
        "a rule code does not start with '<target id>/'",
        "prefix the code with the target's id",
    ),
    Code(
        "unknown_rule_trigger",
        "error",
        "targets",
        "a rule names a trigger kind the shared vocabulary does not have",
        "use a trigger of src/provcat/toolschema/vocabulary.py (see docs/schema-targets.md)",
    ),
    Code(
        "invalid_rule_trigger",
        "error",
        "targets",
        "a trigger has an unknown or missing parameter, or a value it does not take",
        "see the trigger's parameters in docs/schema-targets.md",
    ),
    Code(
        "unknown_rule_action",
        "error",
        "targets",
        "a rule names an unknown compile action, or one its trigger or the target's style cannot take",
        "use an action the trigger lists (see docs/schema-targets.md)",
    ),
    Code(
        "lossy_action_marked_safe",
        "error",
        "targets",
        "the action lets more values through but the rule says `lossy: false`",
        "set `lossy: true`: lossy compiles are refused unless the caller allows them",
    ),
    Code(
        "safe_action_marked_lossy",
        "error",
        "targets",
        "the action never lets more values through but the rule says `lossy: true`",
        "set `lossy: false`",
    ),
    Code(
        "missing_docs_url",
        "error",
        "targets",
        "a rule has no docs_url",
        "add the official page a reader should open",
    ),
    Code(
        "invalid_rule_regex",
        "error",
        "targets",
        "a trigger's regular expression does not compile",
        "fix the expression",
    ),
    Code(
        "invalid_message_template",
        "error",
        "targets",
        "a message, compile or record template is malformed or uses a placeholder the trigger does not fill",
        "use only the trigger's placeholders; write literal braces as {{ and }}",
    ),
    Code(
        "invalid_rule_record",
        "error",
        "targets",
        "a rule's transformation or extra records do not fit its action",
        "actions that change the output need a transformation; keep and unsupported take none",
    ),
    Code(
        "unknown_target_step",
        "error",
        "targets",
        "`steps` names a structural step the shared vocabulary does not have",
        "use a step of src/provcat/toolschema/vocabulary.py",
    ),
    Code(
        "unknown_target_extends",
        "error",
        "targets",
        "`extends` names a target that does not exist or extends another one",
        "extend a target that has its own rules",
    ),
    Code(
        "keyword_dropped_silently",
        "error",
        "targets",
        "a rewrite target would drop a keyword (or a non-schema value) without a rule saying so",
        "add the keyword to output.key_order or to a rule that drops or rewrites it",
    ),
    Code(
        "invalid_target_envelope",
        "error",
        "targets",
        "the output envelope does not hold $name and $schema exactly once",
        "place $name and $schema once each in output.envelope",
    ),
    Code(
        "unknown_schema_target",
        "error",
        "catalog",
        "a provider's tool_schema_target names no file in catalog/schema-targets/",
        "use the id of a schema target",
    ),
    # a schema target's probe against the model inventory (generator/target_probes.py)
    # (warnings: a catalog that lists other providers or models, one imported from models.dev
    # with the bundled targets, still builds; the bundled catalog is held to none by its tests)
    Code(
        "unknown_probe_provider",
        "warning",
        "targets",
        "a schema target's probe.provider names no provider of the catalog",
        "write the key or an alias of the provider whose API the probe calls (catalog/providers/)",
    ),
    Code(
        "unknown_probe_model",
        "warning",
        "targets",
        "a schema target's probe.default_model names no model (by id or alias) of its "
        "probe.provider's inventory",
        "write an id or alias listed under the provider's `models:` (a cheap, current one), or "
        "add the model there",
    ),
    Code(
        "probe_without_provider",
        "warning",
        "targets",
        "a schema target's probe names no provider, so its default_model cannot be checked",
        "add `provider:` to the probe: the key of the provider whose API it calls",
    ),
    Code(
        "retired_probe_model",
        "error",
        "targets",
        "a schema target's probe.default_model names a model that is retired (as of the check "
        "date)",
        "write the model's successor, or another current model of the provider, as default_model",
    ),
    Code(
        "deprecated_probe_model",
        "warning",
        "targets",
        "a schema target's probe.default_model names a deprecated model",
        "write the model's successor as default_model before the shutdown date",
    ),
    # endpoint implementations: an endpoint's own class or a runtime protocol (provcat.endpoints.protocols)
    Code(
        "class_and_protocol",
        "error",
        "catalog",
        "an endpoint names both `class` and `protocol`",
        "keep one: `protocol` for a shape the runtime implements, `class` for your own code",
    ),
    Code(
        "missing_endpoint_implementation",
        "error",
        "catalog",
        "an endpoint names neither `class` nor `protocol`",
        "add `protocol: openai-chat` (or another protocol), or `class` naming your endpoint class",
    ),
    Code(
        "unknown_protocol",
        "error",
        "catalog",
        "`protocol` names no protocol of provcat.endpoints.protocols",
        "use one of the protocols listed in docs/protocols.md",
    ),
    Code(
        "credential_header",
        "error",
        "catalog",
        "default_headers carries a credential (Authorization or x-api-key)",
        "set auth_type and api_key_env instead; keys never appear in the catalog",
    ),
    # importers (`python -m generator import`): defects of the source snapshot, never fatal
    Code(
        "import_unreadable_source",
        "warning",
        "import",
        "a source file cannot be read or parsed (bad TOML, not UTF-8); its provider or model is left out",
        "fix the file in the source snapshot, or add the model by hand",
    ),
    Code(
        "import_dangling_link",
        "warning",
        "import",
        "a source file is a symbolic link to nothing inside the snapshot; the model is left out",
        "report the broken link upstream; nothing of it is imported",
    ),
    Code(
        "import_broken_base_model",
        "warning",
        "import",
        "`base_model` names no lab model file (or a cycle of them); only the model's own facts are imported",
        "report the reference upstream, or add the missing facts by hand",
    ),
    Code(
        "import_limit_conflict",
        "warning",
        "import",
        "a source limit contradicts another (output above the context window, input above it); the suspect limit is left out",
        "check the vendor's page and set the limit by hand",
    ),
    Code(
        "import_invalid_value",
        "warning",
        "import",
        "a source value does not fit the catalog's field (zero or negative, not a date, unknown modality); the field is left out",
        "check the vendor's page and set the field by hand",
    ),
    Code(
        "import_unknown_field",
        "warning",
        "import",
        "a source field the importer does not know; it is left out",
        "if it matters, map it in the importer (generator/importers/) or add it by hand",
    ),
    Code(
        "import_duplicate_model",
        "warning",
        "import",
        "two source model ids differ only in case or surrounding spaces; the later one is left out",
        "report the duplicate upstream; keep the model you mean by hand",
    ),
    Code(
        "import_float_noise",
        "warning",
        "import",
        "a source price has more significant digits than a floating-point number holds (0.30000000000000004); it is imported rounded to 15 (0.3)",
        "check the price on the vendor's page; the rounded one is what the source's arithmetic meant",
    ),
    Code(
        "import_missing_commit",
        "warning",
        "import",
        "the snapshot has no COMMIT file naming its commit (or not a commit id); the models get no `source` link",
        "import the .tar.gz as published, or write the snapshot's commit id into a COMMIT file at its top",
    ),
    # endpoint lifecycle (an endpoint's `lifecycle:`)
    Code(
        "unknown_endpoint_successor",
        "error",
        "catalog",
        "an endpoint's lifecycle `successor` names no other endpoint of the same provider",
        "name another endpoint of the provider by its key or an alias",
    ),
    Code(
        "endpoint_dates_out_of_order",
        "error",
        "catalog",
        "an endpoint's deprecation date is after its shutdown date",
        "fix the dates: deprecation <= shutdown",
    ),
    Code(
        "request_default_on_retired_endpoint",
        "error",
        "catalog",
        "a retired endpoint still gives request defaults",
        "remove its request_defaults; put them on its successor if they apply there",
    ),
    Code(
        "retired_endpoint_without_shutdown_date",
        "error",
        "catalog",
        "a retired endpoint has no shutdown_date",
        "add the shutdown date the vendor announced",
    ),
    Code(
        "endpoint_successor_retired",
        "error",
        "catalog",
        "an endpoint's successor is itself retired",
        "name the endpoint the vendor points to now",
    ),
    Code(
        "missing_api_key_env",
        "warning",
        "catalog",
        "an api endpoint sends a key (auth_type bearer or x-api-key) but names no api_key_env, "
        "so each call fails unless the caller passes api_key=",
        "set api_key_env (the variable's name) on the endpoint or in the provider's defaults, "
        "or auth_type: none for a server that takes no key",
    ),
    Code(
        "request_default_above_output_limit",
        "warning",
        "catalog",
        "a request default caps the output (max_tokens, max_completion_tokens or "
        "max_output_tokens) above the named model's max_output_tokens",
        "write the model's limit or less, or leave the field out",
    ),
    # review days (a provider's or a model's `reviewed_at`), judged on the check date
    Code(
        "reviewed_at_in_future",
        "warning",
        "catalog",
        "a `reviewed_at` day is after the day the catalog is checked on (today, or --as-of): "
        "no review has been made on it yet",
        "write the day the facts were checked against the vendor's pages (YYYY-MM-DD), today "
        "or earlier",
    ),
)

CODES: dict[str, Code] = {code.name: code for code in _CODES}


def all_codes() -> tuple[Code, ...]:
    """Every code, in declaration order (loader, schema, catalog, schema targets, later additions)."""
    return _CODES
