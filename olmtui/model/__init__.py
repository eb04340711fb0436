"""The reconciliation model: pure derivations of OLM's decisions over plain dicts.

Nothing here imports Textual or a Kubernetes client (a test enforces it). Every rule
cites its id from docs/rules.md. ``records`` holds what the model derives,
``primitives`` the algebra every rule shares, ``rules`` the rules by chapter of
docs/rules.md, ``incremental`` the machinery that keeps them over the Store's change
feed, ``viewmodels`` what the screens show that no rule computes."""
