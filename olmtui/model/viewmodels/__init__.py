"""What the screens and the reports show that no rule computes: the :xray tree, the
:ip view, upgrade graphs drawn, OLM's metrics, small derivations of the screens."""
