"""Subscriptions and what their status says (R-SUB-*)."""
