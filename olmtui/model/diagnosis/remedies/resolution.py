"""Plans for the Resolution chapter of docs/rules.md (R-RES-*): what olmtui's own run of
OLM's resolver found. An installed CSV no Subscription references is deleted (R-DOC-14);
for the other clauses which constraint to drop is the admin's choice, and
``olmtui explain NAMESPACE`` shows them all."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.documented import orphan_remedy
from olmtui.model.diagnosis.remedies.planner import Plans, advise

PLANS: Plans = {
    "ResolutionOrphanedCSV": orphan_remedy,
    "ResolutionWouldFail": advise(
        "other",
        "Drop one of the constraints `olmtui explain` lists for this namespace (each line "
        "says its fix); OLM installs nothing here until one goes (R-RES-18).",
    ),
    "ResolutionWouldStop": advise(
        "other", "Fix the error named; OLM resolves nothing in the namespace until then (R-RES-19)."
    ),
    "ResolutionNotEvaluated": None,
    "ResolutionCatalogEmpty": advise(
        "other",
        "Fix the catalog (it must be visible from the namespace, connected and serving), or "
        "the Subscription's spec.source/spec.sourceNamespace (R-RES-3, R-RES-4).",
    ),
    "ResolutionAPIConflict": advise(
        "other",
        "Keep one provider of the API in the namespace: remove the other operator, or install "
        "them in separate namespaces (R-RES-14).",
    ),
    "ResolutionDependencyUnmet": advise(
        "other",
        "Make a provider of the dependency available: a catalog that serves it, visible from "
        "this namespace (R-RES-12).",
    ),
    "ResolutionDeprecatedBundle": advise(
        "other", "Move to a channel or version the catalog does not deprecate (R-RES-17)."
    ),
}
