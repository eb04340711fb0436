"""OperatorGroups and their target namespaces (R-OG-*)."""
