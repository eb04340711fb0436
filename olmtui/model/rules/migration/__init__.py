"""Migration to v1 (R-MIG-1..14): operator-framework/library-olm's migration tool rules, read.

The tool (``migrate-operators-v0-to-v1 check``) classifies every OLM v0 Subscription as
Eligible, Ineligible, AlreadyMigrated or Conflict by its eligibility rules C1..C10 (with C1a),
then ``convert`` replaces the Subscription with a ClusterExtension. olmtui runs the same rules
over the objects it read, never writes anything, and shows the ClusterExtension a conversion
would create for an eligible operator. ``checks`` holds one function per rule, ``states`` the
classification, ``preview`` the ClusterExtension.
"""
