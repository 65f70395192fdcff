"""Firecrawl API (https://api.firecrawl.dev): request models of scrape, map and crawl.

Nothing is imported here: the catalog names each class and request model by its module, and the
runtime imports a module only when an endpoint that needs it is first used.
"""
