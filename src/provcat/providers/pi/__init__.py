"""pi vendor package: the endpoint class for the pi coding agent CLI.

The request model lives in :mod:`provcat.providers.pi.cli`.
"""

from provcat.providers.pi.cli import PiCLIEndpoint

__all__ = ["PiCLIEndpoint"]
