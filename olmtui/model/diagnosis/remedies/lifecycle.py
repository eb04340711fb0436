"""Plans for the Support lifecycle chapter of docs/rules.md (R-LCY-*): the way out is a
newer minor of the operator (its finding names which, R-LCY-6), reached by the channel or
version it follows; olmtui cannot simulate it (the lifecycle is not cluster state)."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.planner import Plans, advise
from olmtui.model.rules.lifecycle.findings import (
    CONFLICT,
    ENDING_SOON,
    INCOMPATIBLE,
    INCOMPATIBLE_NEXT,
    NOT_LISTED,
    OUT_OF_SUPPORT,
)

_UPGRADE = (
    "Upgrade the operator to the supported minor the finding names: switch its Subscription's "
    "channel (or the ClusterExtension's channels/version) to one that offers it and approve "
    "the upgrade; without such a minor, ask the vendor or plan to replace it (R-LCY-6)."
)

PLANS: Plans = {
    OUT_OF_SUPPORT: advise("other", _UPGRADE),
    ENDING_SOON: advise("other", _UPGRADE),
    INCOMPATIBLE: advise("other", _UPGRADE),
    INCOMPATIBLE_NEXT: advise(
        "other",
        "Before or with the next cluster upgrade, upgrade the operator to the minor the "
        "finding names, one compatible with the next OpenShift minor (R-LCY-5, R-LCY-6).",
    ),
    NOT_LISTED: None,
    CONFLICT: advise(
        "contact-author",
        "Ask the catalog's publisher to ship one lifecycle document per package (R-LCY-2).",
    ),
}
