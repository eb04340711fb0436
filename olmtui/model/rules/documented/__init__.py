"""Rules from the OLM documentation (R-DOC-*): cluster upgrade readiness, conversion
webhooks, what an uninstall leaves behind, objects the release payload owns."""
