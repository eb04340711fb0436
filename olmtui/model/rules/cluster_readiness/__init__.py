"""Cluster upgrade readiness (R-CUP-1..R-CUP-6): what holds the cluster's next OpenShift
minor, from OLM v0's CSVs and OLM v1's ClusterExtensions together."""
