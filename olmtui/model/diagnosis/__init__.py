"""The diagnosis: which finding causes which, the incidents findings fold into, remedies as
plans, and what OLM would do next on a changed copy of the state (``olmtui whatif``, the
proof of a remedy); docs/rules.md, "Diagnosis"."""
