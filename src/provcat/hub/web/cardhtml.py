"""An adapter card (Markdown) as safe HTML for the adapter page.

Two independent layers, both maintained libraries: ``markdown-it-py`` renders CommonMark (plus
tables and strikethrough) with raw HTML disabled, so ``<script>`` or an ``onerror`` attribute in
a card is shown as text, and it refuses ``javascript:``, ``vbscript:``, ``file:`` and ``data:``
link targets; then ``nh3`` (the ammonia sanitizer) keeps only an allowlist of tags and attributes
and only ``http``, ``https`` and ``mailto`` URLs, and marks links ``nofollow noopener
noreferrer``. Images are never loaded: each becomes a link to the image, named by its alt text
(a remote image would tell its host who reads the page). The card's headings are moved one level
down, below the page's own title.
"""

from __future__ import annotations

import functools
import html
from typing import Any

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup

__all__ = ["render_card"]

_TAGS = {
    "a", "blockquote", "br", "code", "del", "em", "h2", "h3", "h4", "h5", "h6", "hr", "li",
    "ol", "p", "pre", "s", "span", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
_ATTRIBUTES = {"a": {"href", "title"}, "span": {"class"}, "code": {"class"}}
_SCHEMES = {"http", "https", "mailto"}


def _image_as_link(_renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    alt = "".join(child.content for child in token.children or []) or "image"
    src = str(token.attrGet("src") or "")
    label = f'<span class="image-ref">image: {html.escape(alt)}</span>'
    return f'<a href="{html.escape(src, quote=True)}">{label}</a>' if src else label


@functools.cache
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.add_render_rule("image", _image_as_link)
    return md


@functools.lru_cache(maxsize=64)
def render_card(text: str) -> Markup:
    """The card as HTML that is safe to put in the page."""
    md = _markdown()
    tokens = md.parse(text)
    for token in tokens:  # the page has its h1: the card's headings start at h2
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + 1, 6)}"
    rendered = md.renderer.render(tokens, md.options, {})
    clean = nh3.clean(
        rendered,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes=_SCHEMES,
        link_rel="nofollow noopener noreferrer",
        strip_comments=True,
    )
    return Markup(clean)
