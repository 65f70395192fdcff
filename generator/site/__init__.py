"""The static site: HTML pages of the catalog, made from catalog.json alone (``python -m
generator site``, ``make site``). It reads no YAML and imports no runtime lookup: what the site
shows is what catalog.json holds."""
