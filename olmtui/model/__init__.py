"""The reconciliation model: pure derivations of OLM's decisions over plain dicts.

Nothing here imports Textual or a Kubernetes client (a test enforces it). Every rule cites
its id from docs/rules.md.
"""
