"""provcat's catalog compiler: YAML -> JSON Schema -> whole-set validation -> frozen snapshot + docs.

A development tool: the runtime never imports it.
"""

# 1.1.0: catalog.json beside the snapshot, snapshot format 6 (price periods, fees, max_retries)
GENERATOR_VERSION = "1.1.0"
