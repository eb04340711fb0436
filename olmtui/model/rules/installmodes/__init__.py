"""Install modes and the advice they give (R-IM-*)."""
