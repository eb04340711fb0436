"""InstallPlans (R-IP-*)."""
