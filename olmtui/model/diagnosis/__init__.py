"""The diagnosis over the findings: which finding causes which, the incidents they fold
into, and the remedies tried on a copy of the state (docs/rules.md, "Diagnosis")."""
