"""The diagnosis: which finding causes which and the incidents they fold into (``causes``,
``incidents``), remedies as plans (``remedies``), and what OLM would do next on a changed
copy of the state (``olmtui whatif``, the proof of a remedy)."""
