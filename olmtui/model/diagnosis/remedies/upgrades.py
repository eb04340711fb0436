"""Plans for the Upgrade graphs and semver range chapters of docs/rules.md (R-UPG-*,
R-SEM-*): a catalog's graph is its author's to fix; a Subscription can move to a channel
that has an edge from what is installed."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.planner import Plans, advise

_AUTHOR = "Ask the catalog's author to fix the channel: {what} (R-UPG-7)."

PLANS: Plans = {
    "NoUpgradeEdge": advise(
        "other",
        "Move the Subscription to a channel with an edge from the installed version "
        "(spec.channel), or reinstall the operator (R-UPG-2).",
    ),
    "ChannelGraphError": advise(
        "contact-author",
        _AUTHOR.format(what="one replaces chain with a single head, without cycles"),
    ),
    "StrandedBundles": advise(
        "contact-author", _AUTHOR.format(what="every bundle reachable from the head")
    ),
    "InvalidSkipRange": advise(
        "contact-author", _AUTHOR.format(what="an olm.skipRange that parses (R-SEM-7)")
    ),
    "NoOperatorsFound": advise(
        "other",
        "Point the Subscription's spec.name, spec.channel and spec.startingCSV at a package, "
        "channel and bundle its catalog serves (R-UPG-6).",
    ),
    "UpgradeAvailable": None,
    "UpgradePathUnknown": None,
    "SkippedBundleInstalled": None,
    "ReplacesRewritten": None,
    "NotInCatalogContent": None,
}
