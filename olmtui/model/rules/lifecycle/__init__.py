"""Support lifecycle (R-LCY-*): catalog lifecycle documents read against the installed
operators and the cluster's OpenShift version."""
