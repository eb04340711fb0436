"""The command palette's objects (ctrl+p): type part of a name, pick "CSV ns/name", jump to
its detail.

Read per keystroke over what the cache holds, so it stays cheap at a hundred thousand
copied CSVs: CSVs come from the model's own list (copies are not in it), the other kinds
are few; a plain substring test selects, and at most :data:`LIMIT` hits are scored.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

from textual.command import Hit, Hits, Provider
from textual.markup import escape

from olmtui.kinds import CATALOG_SOURCE, CSV, INSTALL_PLAN, OPERATOR_GROUP, SUBSCRIPTION
from olmtui.model.records.types import ObjectRef
from olmtui.safe_text import visible

if TYPE_CHECKING:
    from olmtui.ui.app_base import OlmAppBase

#: Hits offered per query: the palette shows a screenful; more is noise and time.
LIMIT = 40
#: (kind, label) of the objects offered besides CSVs.
KINDS = (
    (SUBSCRIPTION, "Subscription"),
    (OPERATOR_GROUP, "OperatorGroup"),
    (CATALOG_SOURCE, "CatalogSource"),
    (INSTALL_PLAN, "InstallPlan"),
)


class ObjectsProvider(Provider):
    """Objects by name, for the palette of olmtui's app (its ``session``, ``open_object``)."""

    @property
    def app(self) -> OlmAppBase:
        """The app, typed as olmtui's (``ui/app_base``)."""
        return cast("OlmAppBase", super().app)

    def _refs(self, needle: str) -> Iterator[ObjectRef]:
        session = self.app.session
        for csv in session.model.csvs():
            if needle in csv.name.lower() or needle in csv.namespace.lower():
                yield ObjectRef(CSV, csv.namespace, csv.name)
        for kind, _ in KINDS:
            for (namespace, name), _obj in session.store.slots(kind):
                if needle in name.lower() or needle in namespace.lower():
                    yield ObjectRef(kind, namespace, name)

    async def search(self, query: str) -> Hits:
        needle = query.strip().lower()
        if len(needle) < 2:
            return
        matcher = self.matcher(query)
        for count, ref in enumerate(self._refs(needle)):
            if count >= LIMIT:
                return
            text = visible(f"{_label(ref.kind)} {ref.namespace}/{ref.name}")
            score = matcher.match(text) or 0.01
            yield Hit(
                score,
                matcher.highlight(escape(text)),  # names are data, never markup
                lambda ref=ref: self.app.open_object(ref),
                text=text,
                help="open its detail",
            )


def _label(kind: str) -> str:
    return "CSV" if kind == CSV else kind
