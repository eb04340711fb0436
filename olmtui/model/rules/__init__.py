"""OLM's rules, one sub-package per chapter of docs/rules.md: pure functions over
plain dicts and records. A rule imports no Store (only the store's plain
vocabulary: keys, ``is_copied_csv``) and nothing of ``model.incremental``
(tests/contract/test_layers.py holds it, and names the one module still reading the Store)."""
