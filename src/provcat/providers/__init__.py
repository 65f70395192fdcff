"""Vendor packages: endpoint classes and request models the catalog YAML names."""
