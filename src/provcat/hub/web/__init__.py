"""The hub's web page: browse namespaces, adapters, versions and manifests in a browser.

Server-rendered HTML (jinja2, autoescaped), one small stylesheet and one small script for the
copy button; no build step. Reads follow the API's rules: public by default; with private reads
the page asks for a token once and keeps it in an ``HttpOnly`` ``SameSite=Strict`` cookie that
only the pages read (API writes still need the ``Authorization`` header).
"""

from __future__ import annotations

from provcat.hub.web.pages import install_pages

__all__ = ["install_pages"]
