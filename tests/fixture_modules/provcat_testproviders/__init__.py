"""Provider modules for the test catalogs (never part of the bundled catalog)."""
