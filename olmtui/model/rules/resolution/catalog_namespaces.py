"""The catalog namespaces OLM resolves from (R-RES-3), named once for the resolver and the
findings that read OLM's failures (neither may import the other's dependencies)."""

from __future__ import annotations

#: R-RES-3: the annotation that keeps the global catalog namespace out of a namespace's view.
EXCLUDE_GLOBAL = "olm.operatorframework.io/exclude-global-namespace-resolution"
#: The global catalog namespace on OpenShift, and upstream (the catalog operator's
#: ``-namespace`` flag, which olmtui cannot read, may set another).
OPENSHIFT_GLOBAL = "openshift-marketplace"
UPSTREAM_GLOBAL = "olm"
