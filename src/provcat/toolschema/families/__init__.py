"""The rule families the walk dispatches to, one module each: ``keywords`` (reported, dropped
and unknown keywords, formats, enum values), ``types`` (type names, const, nullable, int64 and
the closing steps), ``objects`` (closing objects, optional properties, the root's type),
``unions`` (nullable unions, ``oneOf``), ``refs`` (references and definitions, references
under ``allOf``), ``patterns`` (regular-expression features in ``pattern``), ``limits``
(nesting and size limits) and ``names`` (the tool's name, description, property names,
headers, dialect). Each implements its share of the vocabulary in
``toolschema/vocabulary.py`` once, for every target; which rules apply is the target's data."""
