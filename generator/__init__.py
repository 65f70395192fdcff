"""provcat's catalog compiler: YAML -> JSON Schema -> whole-set validation -> frozen snapshot + docs.

A development tool: the runtime never imports it.
"""

GENERATOR_VERSION = "1.0.0"
