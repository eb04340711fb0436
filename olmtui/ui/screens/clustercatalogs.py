"""ClusterCatalogs (OLM v1, ``:cc``): priority, availability, whether catalogd serves it,
the image reference and the digest it resolved to, when it was last unpacked, and the
ClusterExtensions whose selector takes it (R-V1-6, R-V1-7, R-V1-9)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from rich.console import Group, RenderableType
from rich.text import Text

from olmtui.kinds import CLUSTER_CATALOG
from olmtui.model.records.types import ObjectRef
from olmtui.ui import palette
from olmtui.ui.formatting import line, mark, names, section
from olmtui.ui.screens.base import TableScreen
from olmtui.ui.screens.extensions import conditions_lines, finding_marks, findings_lines
from olmtui.ui.widgets.virtual_table import Column, Row


def serving_cell(serving: bool | None, user_unavailable: bool) -> Text:
    """``yes``, ``✖ no``, ``off`` (availabilityMode Unavailable: resolution skips it, by
    choice) or ``?`` (no Serving condition yet)."""
    if user_unavailable:
        return Text("off", style=palette.MUTED)
    if serving is None:
        return Text("?", style=palette.UNKNOWN)
    if serving:
        return Text("yes", style=palette.OK)
    return Text(f"{mark('error')} no", style=palette.ERROR)


def short_digest(ref: str | None) -> str:
    """``…@sha256:3cd8fde1dfd4``: a digest reference cut to 12 hex digits."""
    if not ref:
        return "-"
    image, at, digest = ref.partition("@")
    if not at:
        return ref
    algorithm, _, hexdigits = digest.partition(":")
    return f"{image}@{algorithm}:{hexdigits[:12]}"


class ClusterCatalogsScreen(TableScreen):
    VIEW_TITLE = "ClusterCatalogs"
    SCOPE = None  # cluster-scoped, and not tied to a namespace
    COLUMNS = (
        Column("name", "NAME", min_width=14, cut="middle"),
        Column("serving", "SERVING", 7),
        Column("priority", "PRIORITY", 8, sort="number"),
        Column("findings", "FINDINGS", 8),
        Column("users", "EXTENSIONS", min_width=10),
        Column("resolved", "RESOLVED", cut="never"),
        Column("unpacked", "LAST UNPACKED", 20),
        Column("mode", "AVAILABILITY", 12),
        Column("ref", "REF", cut="middle"),
    )
    EMPTY_TEXT = "no ClusterCatalogs (OLM v1)"
    ACCESS_KIND = CLUSTER_CATALOG

    def build_rows(self) -> Iterable[Row]:
        state = self.session.analysis.v1_state()
        subjects = self.session.analysis.findings_by_subject()
        for c in state.catalogs.values():
            yield Row(
                c.name,
                (
                    c.name,
                    serving_cell(c.serving, c.user_unavailable),
                    str(c.priority),
                    finding_marks(subjects.get((CLUSTER_CATALOG, "", c.name), ())),
                    names(state.users(c.name), 4, empty="-"),
                    short_digest(c.resolved_ref).rpartition("@")[2] or "-",
                    c.last_unpacked or "-",
                    c.availability_mode,
                    c.ref or "-",
                ),
            )

    def describe(self, key: Hashable) -> RenderableType:
        state = self.session.analysis.v1_state()
        c = state.catalogs.get(key) if isinstance(key, str) else None
        if c is None:
            return Text("")
        found = self.session.analysis.findings_by_subject().get((CLUSTER_CATALOG, "", c.name), ())
        mode = c.availability_mode + (
            ": resolution treats it as absent (R-V1-9)" if c.user_unavailable else ""
        )
        content = (
            "given (--catalog)"
            if c.name in state.content
            else "not given: resolution against it is not computed"
        )
        parts: list[RenderableType] = [
            line("ClusterCatalog", f"{c.name}  priority {c.priority}"),
            line("availability", mode),
            line("serving (R-V1-7)", serving_cell(c.serving, c.user_unavailable)),
            line("ref", c.ref or "-"),
            line("resolved ref", c.resolved_ref or "not resolved yet"),
            line("last unpacked", c.last_unpacked or "-"),
            line("base URL", c.base_url or "-"),
            line("content in olmtui", content),
            line("selected by", names(state.users(c.name), empty="no ClusterExtension")),
            section("Conditions"),
            *conditions_lines(c.conditions),
            section(f"Findings ({len(found)})"),
            *findings_lines(found),
        ]
        return Group(*parts)

    def ref_for(self, key: Hashable) -> ObjectRef | None:
        return ObjectRef(CLUSTER_CATALOG, "", key) if isinstance(key, str) else None
