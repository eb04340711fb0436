"""Plans for the Copied CSVs chapter (R-COPY-*): OLM makes and collects copies by itself;
what is left to a person is turning copies back on, or checking that OLM runs."""

from __future__ import annotations

from olmtui.model.diagnosis.remedies.planner import Plans, advise

PLANS: Plans = {
    "MissingCopiedCSV": advise(
        "wait",
        "OLM creates the copies at its next sync of the CSV; if they stay missing, check that "
        "the olm-operator runs (R-COPY-3).",
    ),
    "StaleCopiedCSV": advise(
        "wait",
        "OLM deletes copies outside the group's targets at its next sync; if they stay, check "
        "that the olm-operator runs (R-COPY-6).",
    ),
    "CopiedCSVsDisabled": None,
    "CopiedCSVsConditionStale": None,
}
