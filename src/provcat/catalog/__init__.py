"""The catalog: its records, key functions and snapshot, and the publication of the snapshot
(ADR-0028). Records and lookup only: no pydantic, no endpoint classes.

Import from the modules themselves (``provcat.catalog.keys``, ``provcat.catalog.snapshot``, ...):
this package imports none of them, so a thread that starts at a module and one that starts at the
package never take the two import locks in opposite orders (Python's ``_DeadlockError``).
"""
