"""Importers: seed or refresh a catalog folder from a public model catalog.

An importer reads a source snapshot (never the network), writes one provider YAML per source
provider and reports the source's own defects as diagnostics with their positions.
"""
