"""Catalog content and health: CatalogSources a Subscription needs (R-SUB-8), several
pieces of one catalog (R-DOC-8), PackageManifests as catalogs."""
