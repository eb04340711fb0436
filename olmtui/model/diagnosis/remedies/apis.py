"""Plans for the chapter on provided APIs and intersecting groups (R-API-*): two operators
providing one API to overlapping namespaces; which one goes, or how the groups' targets
change, is the admin's choice."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.planner import Plans, advise

_OVERLAP = (
    "Uninstall one of the operators providing the API, or change the groups' targets so "
    "they no longer overlap; OLM then returns the CSV to Pending (R-API-9)."
)

PLANS: Plans = {
    "InterOperatorGroupOwnerConflict": advise("other", _OVERLAP),
    "PendingAPIConflict": advise("other", _OVERLAP),
    "CannotModifyStaticOperatorGroupProvidedAPIs": advise(
        "other",
        "Add this CSV's APIs to the static group's olm.providedAPIs annotation by hand, or "
        "set spec.staticProvidedAPIs: false (R-API-6).",
    ),
    "StaleProvidedAPIs": advise(
        "other",
        "Remove the stale entries from the group's olm.providedAPIs annotation if OLM has not "
        "pruned them after its next sync (R-API-8).",
    ),
    "StaticProvidedAPIs": None,
    "ProvidedAPIsPendingAddition": None,
    "MalformedCRDName": advise(
        "contact-author",
        "Ask the bundle's author to give every owned CRD a name with its group "
        "(plural.group): OLM aborts every sync of this CSV (R-API-1).",
    ),
}
