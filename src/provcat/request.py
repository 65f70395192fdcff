"""The base every request model derives from.

A request model lists a vendor API's documented top-level request fields. It forbids unknown
fields, so a misspelled request default is rejected when the catalog is generated instead of
travelling to the vendor as request data.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["RequestModel"]


class RequestModel(BaseModel):
    """Strict pydantic model of one endpoint's request body or command options."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
