"""Cluster upgrade readiness (``:upgrade``, R-CUP-6): every blocker of the next OpenShift
minor, OLM v0 and v1 together, with its cap and the way out; the extensions whose cap is not
known are listed after them, as unknown. Enter drills to the blocker's object."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text

from olmtui.model.records.types import ObjectRef
from olmtui.model.rules.cluster_readiness.readiness import Blocker, UpgradeReadiness
from olmtui.ui import palette
from olmtui.ui.formatting import line, section
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.extensions import finding_marks, findings_lines
from olmtui.ui.widgets.virtual_table import Column, Row

#: What an unknown row says (R-CUP-5).
UNKNOWN_WORDS = (
    "cap not known: its installed bundle is in no catalog content given (--catalog) and the olm "
    "ClusterOperator says nothing of it"
)


def headline(readiness: UpgradeReadiness) -> str:
    """``4.18.12 -> 4.19: 2 blockers``, ``ready``, or that the version is not in the source."""
    count = len(readiness.blockers)
    verdict = f"{count} blocker{'s' if count != 1 else ''}" if count else "ready"
    if readiness.current_version is None:
        return f"OpenShift version not in the source; {verdict}"
    return f"OpenShift {readiness.current_version} -> {readiness.next_minor}: {verdict}"


def _where(ref: ObjectRef) -> str:
    return f"{ref.kind} {ref.namespace}/{ref.name}" if ref.namespace else f"{ref.kind} {ref.name}"


class UpgradeScreen(TableScreen):
    VIEW_TITLE = "Cluster upgrade"
    SCOPE = "ref"
    COLUMNS = (
        Column("source", "SOURCE", 15),
        Column("object", "OBJECT", min_width=24, cut="middle"),
        Column("cap", "CAP", 5),
        Column("findings", "FINDINGS", 8),
        Column("message", "WHY AND THE WAY OUT", min_width=20),
    )
    EMPTY_TEXT = "nothing holds the next OpenShift minor that the input shows"

    def title_note(self) -> str:
        return f" {headline(self.session.analysis.upgrade_readiness())}"

    def build_rows(self) -> Iterable[Row]:
        readiness = self.session.analysis.upgrade_readiness()
        subjects = self.session.analysis.findings_by_subject()
        for b in readiness.blockers:
            ref = b.object
            yield Row(
                ref,
                (
                    Text(b.source, style=palette.WARNING),
                    _where(ref),
                    b.max_openshift_version or "?",
                    finding_marks(subjects.get((ref.kind, ref.namespace, ref.name), ())),
                    b.message,
                ),
            )
        for ref in readiness.unknown:
            yield Row(
                ref,
                (
                    Text("unknown", style=palette.UNKNOWN),
                    _where(ref),
                    "?",
                    finding_marks(subjects.get((ref.kind, ref.namespace, ref.name), ())),
                    UNKNOWN_WORDS,
                ),
            )

    def _blocker(self, ref: ObjectRef) -> Blocker | None:
        readiness = self.session.analysis.upgrade_readiness()
        return next((b for b in readiness.blockers if b.object == ref), None)

    def describe(self, key: Hashable) -> RenderableType:
        if not isinstance(key, ObjectRef):
            return Text("")
        readiness = self.session.analysis.upgrade_readiness()
        blocker = self._blocker(key)
        found = self.session.analysis.findings_by_subject().get(
            (key.kind, key.namespace, key.name), ()
        )
        parts: list[RenderableType] = [
            line("cluster", headline(readiness)),
            line("object", _where(key)),
            line("read from", blocker.source if blocker is not None else "unknown (R-CUP-5)"),
            line(
                "olm.maxOpenShiftVersion",
                (blocker.max_openshift_version if blocker is not None else None) or "not known",
            ),
            section("Why, and the way out"),
            Text(blocker.message if blocker is not None else UNKNOWN_WORDS),
            section(f"Findings ({len(found)})"),
            *findings_lines(found),
        ]
        return Group(*parts)
