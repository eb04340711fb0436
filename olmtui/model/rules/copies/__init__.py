"""Copied CSVs (R-COPY-*)."""
