"""OLM v1 (``olm.operatorframework.io/v1``): ClusterExtensions and ClusterCatalogs, read as
operator-controller and catalogd write them, and what operator-controller would resolve
(``olm-v1-rules``)."""
