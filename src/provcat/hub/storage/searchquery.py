"""The search as one SQL query over the search index (revision 0002), in any of ``SORTS``.

Relevance is ``searching.rank``'s score computed by the database (LIKE on casefolded text, ``%``
and ``_`` literal, exact tag lookups); ``recent`` orders by the newest live version's publication
time and ``downloads`` by the downloads of all versions together (revision 0003): each joins its
aggregate only when asked for. Ties go by namespace, then name, in code-point order on both
databases. The caller re-sorts the at most ``limit`` rows with the returned key, so the order
never depends on how a database returns joined rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    and_,
    case,
    exists,
    func,
    literal,
    null,
    or_,
    select,
    true,
)
from sqlalchemy.engine import Row

from provcat.hub.storage.tables import adapters, downloads, search, search_tags

__all__ = ["SORTS", "search_query"]

# best match (the protocol's), newest published version first, namespace/name, most downloads
SORTS = ("relevance", "recent", "name", "downloads")


def _descending(text: str) -> tuple[int, ...]:
    """A sort key putting ``text`` (an RFC 3339 time, all of one length) in descending order."""
    return tuple(-ord(c) for c in text)


def search_query(
    query: str | None,
    tags: Sequence[str],
    limit: int,
    namespaces: Sequence[str] | None,
    sort: str,
    *,
    postgres: bool,
    offset: int = 0,
) -> tuple[Select[Any], Callable[[Row[Any]], tuple[Any, ...]]]:
    """The statement (each row: an adapter's latest version, with ``score``, ``updated`` and
    ``total``) and the key that orders its rows. ``offset`` skips that many rows of the whole
    order first (a later page): the order is total (namespace and name are unique), so
    consecutive pages hold every match exactly once."""
    if sort not in SORTS:
        raise ValueError(f"sort must be one of {', '.join(SORTS)}")
    needle = (query or "").casefold()
    s, t = search, search_tags
    same = and_(t.c.namespace == s.c.namespace, t.c.name == s.c.name)
    score: ColumnElement[Any]
    if needle:
        # LIKE patterns escape % and _ (autoescape): the query is a literal substring; both
        # sides are casefolded in Python, so the dialect's LIKE case rules never matter
        score = case(
            (or_(s.c.name == needle, s.c.namespace + "/" + s.c.name == needle), 6),
            (s.c.name.startswith(needle, autoescape=True), 5),
            (s.c.name.contains(needle, autoescape=True), 4),
            (exists().where(same, t.c.tag_cf == needle), 3),
            (
                or_(
                    s.c.namespace.contains(needle, autoescape=True),
                    exists().where(same, t.c.tag_cf.contains(needle, autoescape=True)),
                ),
                2,
            ),
            (s.c.description_cf.contains(needle, autoescape=True), 1),
            else_=0,
        )
    else:
        score = literal(1)
    updated: ColumnElement[Any] = null()
    total: ColumnElement[Any] = null()
    source: Any = s
    if sort == "recent":  # the newest live version's publication time
        newest = (
            select(
                adapters.c.namespace,
                adapters.c.name,
                func.max(adapters.c.created_at).label("updated"),
            )
            .where(adapters.c.deleted_at.is_(None))
            .group_by(adapters.c.namespace, adapters.c.name)
            .subquery()
        )
        source = s.outerjoin(
            newest, and_(newest.c.namespace == s.c.namespace, newest.c.name == s.c.name)
        )
        updated = newest.c.updated
    elif sort == "downloads":  # every version's downloads together
        totals = (
            select(
                downloads.c.namespace,
                downloads.c.name,
                func.sum(downloads.c.downloads).label("total"),
            )
            .group_by(downloads.c.namespace, downloads.c.name)
            .subquery()
        )
        source = s.outerjoin(
            totals, and_(totals.c.namespace == s.c.namespace, totals.c.name == s.c.name)
        )
        total = func.coalesce(totals.c.total, 0)
    ranked = (
        select(
            s.c.namespace,
            s.c.name,
            s.c.version,
            score.label("score"),
            updated.label("updated"),
            total.label("total"),
        )
        .select_from(source)
        .where(score > 0 if needle else true())
        .where(*(exists().where(same, t.c.tag == tag) for tag in dict.fromkeys(tags)))
    )
    if namespaces is not None:
        ranked = ranked.where(s.c.namespace.in_(list(namespaces)))
    order_ns: ColumnElement[Any] = s.c.namespace
    order_name: ColumnElement[Any] = s.c.name
    if postgres:  # code-point order, as Python sorts
        order_ns, order_name = order_ns.collate("C"), order_name.collate("C")
    first: Sequence[ColumnElement[Any]] = {
        "relevance": [score.desc()],
        "recent": [updated.desc()],
        "name": [],
        "downloads": [total.desc()],
    }[sort]
    top = ranked.order_by(*first, order_ns, order_name).limit(limit).offset(offset).subquery()
    statement = select(adapters, top.c.score, top.c.updated, top.c.total).join(
        top,
        and_(
            adapters.c.namespace == top.c.namespace,
            adapters.c.name == top.c.name,
            adapters.c.version == top.c.version,
        ),
    )

    def key(row: Row[Any]) -> tuple[Any, ...]:
        lead: tuple[Any, ...] = {
            "relevance": (-row.score,),
            "recent": (_descending(row.updated or ""),),
            "name": (),
            "downloads": (-int(row.total or 0),),
        }[sort]
        return (*lead, row.namespace, row.name)

    return statement, key
