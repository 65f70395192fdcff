"""AG2 (the ``ag2`` package, formerly AutoGen): in-process agent, group chat and NLIP endpoints.

AG2 is an optional dependency (the ``ag2`` extra: ``pip install '.[ag2]'`` in a clone). This module raises
:class:`ImportError` when the ``ag2`` package cannot be imported, so the catalog marks the ag2
provider ``unavailable`` with an ``import_error`` diagnostic (ADR-0028 D3) while every other
provider keeps working. The check finds the package without executing it: importing ``ag2``
itself takes more than half a second and pulls in PyYAML, so it happens on the first call.
"""

import importlib.util

try:
    _FOUND = importlib.util.find_spec("ag2") is not None
except ValueError:  # already imported without a spec (a stand-in module): present
    _FOUND = True
if not _FOUND:
    from provcat.extras import install_hint

    raise ImportError(
        "the ag2 provider needs the 'ag2' package (AG2 >= 1.2): install provcat with its 'ag2' "
        f"extra, provcat[ag2]: {install_hint('ag2')}"
    )

from provcat.providers.ag2.agent import AG2AgentEndpoint
from provcat.providers.ag2.groupchat import AG2GroupChatEndpoint
from provcat.providers.ag2.nlip import AG2NlipEndpoint

__all__ = ["AG2AgentEndpoint", "AG2GroupChatEndpoint", "AG2NlipEndpoint"]
