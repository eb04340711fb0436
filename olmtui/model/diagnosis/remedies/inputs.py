"""Plans for the chapter "About the input" (R-SRC-*): what olmtui could not read is not a
state of the cluster, so there is nothing to change there; a field of the wrong type is the
one exception, since the object itself carries it (R-SRC-4)."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.planner import Plans, advise

PLANS: Plans = {
    "MalformedObject": advise(
        "other", "Fix the field the finding names in the object (or the file) (R-SRC-4)."
    ),
    "NamespacesInferred": None,
    "NamespacesNotRead": None,
    "LiveKindUnavailable": None,
    "LiveNoAccess": None,
    "UnreadableDocument": None,
    "InvalidObject": None,
    "UnreadableCatalogFile": None,
    "CatalogContentConflict": None,
    "CatalogSourceNotFound": None,
}
