"""Upgrade graphs over catalog channels (R-UPG-*)."""
