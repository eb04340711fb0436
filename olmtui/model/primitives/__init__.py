"""The small algebra every rule shares: namespace sets (R-NS-*), OLM's semantic
versions and ranges (R-SEM-*), decimal digits, Go's quoting, JSON held as text,
manifest fields, bundle properties and the mark on objects a loader made up. No rule
lives here."""
