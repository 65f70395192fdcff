"""A provider module whose import is interrupted: control signals must never be swallowed."""

raise KeyboardInterrupt
