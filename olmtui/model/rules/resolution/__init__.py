"""OLM v0's dependency resolution, reproduced offline (``olm-resolver-rules`` R-RES-*).

Per namespace, OLM's catalog operator turns the installed CSVs, the Subscriptions and the
content of every visible catalog into a SAT problem and installs what its solver picks. This
package builds the same problem (``constraints``), solves it with OLM's preferences and, when
nothing fits, explains why with a minimal set of constraints (``result``).
"""
