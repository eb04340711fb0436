"""Provided APIs and intersecting OperatorGroups (R-API-*)."""
