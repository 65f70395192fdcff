"""Models: model specs and the policies they apply, the model inventory, its lifecycle, and cost.

Everything here reads the catalog (:mod:`provcat.catalog`) and nothing above it: no endpoint is
imported or built to parse a spec or look up a model.
"""
