"""What OLM state changed between two moments (``olmtui diff``, R-REC-6..8): objects added,
removed and changed in the fields that matter, operators' installed versions, findings and
incidents new and resolved. Pure: it reads two sides' objects and reports as plain data."""
