"""provcat: the validated catalog of LLM provider adapters.

The catalog itself lives in the generated ``provcat_catalog`` package; this package is the runtime
that reads it. Importing ``provcat`` is cheap: nothing is imported from the snapshot until first use.
"""

__version__ = "0.1.0"
