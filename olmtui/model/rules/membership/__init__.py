"""A CSV's membership in its namespace's OperatorGroup (R-MEM-*)."""
