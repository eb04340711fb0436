"""``:xray``: one tree per operator, Subscription -> InstallPlan -> CSV -> Deployments, CRDs
and copies (``olmtui.model.viewmodels.xray``), each node marked by the worst finding about its
object and listing their codes. ``x`` on a Subscription or CSV row opens the tree of that operator
alone. Enter opens a node's object; space (or a click on the arrow) opens and closes a node.
Copies are one count node, filled (capped) only when opened."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from olmtui.kinds import CLUSTER_EXTENSION, CSV, POD, SUBSCRIPTION
from olmtui.model.records.types import ObjectRef, ref
from olmtui.model.rules.copies.placement import copy_source
from olmtui.model.rules.v1.revisions import ExtensionRevisions
from olmtui.model.viewmodels.xray import (
    CopyFacts,
    XrayNode,
    copy_nodes,
    extension_tree,
    operator_root,
    pods_by_namespace,
    subscription_tree,
    unsubscribed,
)
from olmtui.pipeline.session import Session
from olmtui.safe_text import visible
from olmtui.store import is_copied_csv
from olmtui.ui import palette
from olmtui.ui.formatting import PHASE_STYLE, SEVERITY_STYLE
from olmtui.ui.screens.base import ViewScreen
from olmtui.ui.widgets.source_header import SourceHeader

#: A mark per health, so it reads without colour (NO_COLOR) too.
MARKS = {severity: f"{glyph} " for severity, glyph in palette.SEVERITY_MARK.items()}
#: Phases that speak for themselves when no finding is about the object.
PHASE_MARKS = {
    "Failed": MARKS["error"],
    "UpgradeFailed": MARKS["error"],
    "Missing": MARKS["warning"],
}


def node_label(node: XrayNode) -> Text:
    """The node's text in its health's colour: the worst finding's severity, else green when
    its phase says it works, else its phase's colour; finding codes in brackets."""
    if node.severity is not None:
        style, mark = SEVERITY_STYLE[node.severity], MARKS[node.severity]
    elif node.healthy:
        style, mark = palette.OK, "✓ "
    else:
        style = PHASE_STYLE.get(node.state or "", "")
        mark = PHASE_MARKS.get(node.state or "", "  " if node.ref else "")
    out = Text(mark + visible(node.label), style=style)
    if node.codes:
        out.append(f"  [{', '.join(node.codes)}]", style=palette.MUTED)
    return out


class XrayScreen(ViewScreen):
    """All operators (``only`` unset), or the one of a Subscription or CSV."""

    VIEW_TITLE = "X-ray"
    REFRESH_PARTS = ("#xray",)

    def __init__(
        self, session: Session, commands: Sequence[str] = (), only: ObjectRef | None = None
    ) -> None:
        super().__init__(session, commands)
        self.only = only
        self._query = ""

    def compose_body(self) -> ComposeResult:
        tree: Tree[XrayNode] = Tree("operators", id="xray")
        tree.show_root = False
        tree.auto_expand = False
        yield tree

    @property
    def xray_tree(self) -> Tree[XrayNode]:
        return self.query_one("#xray", Tree)

    def on_mount(self) -> None:
        super().on_mount()
        self.xray_tree.focus()

    def focus_main(self) -> None:
        self.set_focus(self.xray_tree)

    # -- building --------------------------------------------------------------------------
    def _copies(self, namespace: str, name: str) -> CopyFacts:
        model = self.session.model
        copied = model.copied_csvs()
        source = ref(namespace, name)
        return CopyFacts(
            model.copies_of(namespace, name),
            [m.namespace for m in copied.missing if m.csv == source],
            [s for s in copied.stale if s.copied_from == namespace and s.name == name],
        )

    def roots(self) -> list[XrayNode]:
        """One root per Subscription, then per CSV no Subscription installed."""
        model = self.session.model
        get = self.session.store.get
        pods = pods_by_namespace(self.session.store.list(POD))
        unreadable = self.session.store.unreadable  # "no access", not "not in the cache"
        findings = self.session.analysis.findings_by_subject()
        subs = model.subscriptions()
        out = []
        for sub in subs:
            name = sub.installed_csv or sub.current_csv
            if not self._wanted(sub.namespace, sub.name, name):
                continue
            csv = model.csv(sub.namespace, name) if name else None
            copies = self._copies(sub.namespace, name) if name else CopyFacts()
            out.append(subscription_tree(sub, csv, get, findings, copies, pods, unreadable))
        for csv in unsubscribed(subs, model.csvs()):
            if self.only is None or self.only == ObjectRef(CSV, csv.namespace, csv.name):
                copies = self._copies(csv.namespace, csv.name)
                out.append(operator_root(csv, get, findings, copies, pods, unreadable))
        v1 = self.session.analysis.v1_state()
        for extension in v1.extensions.values():
            if self.only is None or self.only == ObjectRef(CLUSTER_EXTENSION, "", extension.name):
                revisions = v1.revisions.get(extension.name, ExtensionRevisions(extension.name, ()))
                out.append(extension_tree(extension, revisions, findings))
        if self._query:
            out = [r for r in out if self._query in r.label.lower()]
        return out

    def _wanted(self, namespace: str, sub: str, csv: str | None) -> bool:
        only = self.only
        if only is None:
            return True
        if only.namespace != namespace:
            return False
        return only == ObjectRef(SUBSCRIPTION, namespace, sub) or (
            only.kind == CSV and only.name == csv
        )

    def refresh_data(self) -> None:
        """Rebuild the tree, keeping the nodes that were open open."""
        if not self.parts_present():  # before its children are mounted, or as they go
            return
        self._shown_version = self.session.analysis.shown_stamp()
        tree = self.xray_tree
        opened = set(_open_paths(tree.root))
        line = max(tree.cursor_line, 0)
        tree.clear()
        roots = self.roots()
        for root in roots:
            self._add(tree.root, root, opened, expand=self.only is not None, path=())
        if not roots:
            tree.root.add_leaf(
                Text("no operator" if not self._query else "no match", palette.MUTED)
            )
        # after the tree lays its lines out again, the cursor stays where it was
        self.call_after_refresh(self._restore_cursor, line)
        count = f"[{len(roots)}]" + (f" /{self._query}" if self._query else "")
        for header in self.query(SourceHeader):
            header.view_title = f"{self.VIEW_TITLE} {count}"
        self.redraw_header()

    def _restore_cursor(self, line: int) -> None:
        if not self.parts_present():  # the screen left before the tree was laid out again
            return
        tree = self.xray_tree
        tree.cursor_line = min(line, max(tree.last_line, 0))

    def _add(
        self,
        parent: TreeNode[XrayNode],
        node: XrayNode,
        opened: set[tuple[str, ...]],
        expand: bool,
        path: tuple[str, ...],
    ) -> None:
        here = (*path, _key(node))
        lazy = node.copies_of is not None
        if not node.children and not lazy:
            parent.add_leaf(node_label(node), node)
            return
        child = parent.add(node_label(node), node, allow_expand=True)
        for sub in node.children:
            self._add(child, sub, opened, expand, here)
        if here in opened or (expand and not lazy):
            if lazy:
                self._fill_copies(child)
            child.expand()

    def _fill_copies(self, node: TreeNode[XrayNode]) -> None:
        data = node.data
        if data is None or data.copies_of is None or node.children:
            return
        src = data.copies_of
        for item in copy_nodes(src, self._copies(src.namespace, src.name), self.session.store.get):
            node.add_leaf(node_label(item), item)

    @on(Tree.NodeExpanded)
    def _expanded(self, event: Tree.NodeExpanded[XrayNode]) -> None:
        self._fill_copies(event.node)

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected[XrayNode]) -> None:
        data = event.node.data
        if data is not None and data.ref is not None:
            self.app.open_object(data.ref)
        else:
            event.node.toggle()

    # -- hooks -----------------------------------------------------------------------------
    def selected_ref(self) -> ObjectRef | None:
        node = self.xray_tree.cursor_node
        return None if node is None or node.data is None else node.data.ref

    def apply_filter(self, query: str) -> None:
        """``/`` keeps the operators whose root line contains the text."""
        self._query = query.strip().lower()
        self.refresh_data()


def _key(node: XrayNode) -> str:
    """What identifies a node across rebuilds: its object, else its label (a group)."""
    target = node.ref
    return node.label if target is None else f"{target.kind}/{target.namespace}/{target.name}"


def _open_paths(node: TreeNode[XrayNode], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The label paths of the open nodes under ``node``."""
    out = []
    for child in node.children:
        if child.data is None:
            continue
        here = (*path, _key(child.data))
        if child.is_expanded:
            out.append(here)
            out += _open_paths(child, here)
    return out


def open_xray(screen: ViewScreen) -> None:
    """``x`` on a Subscription or CSV row: the tree of that operator alone."""
    target = screen.selected_ref()
    if target is None or target.kind not in (SUBSCRIPTION, CSV):
        screen.notify("x: select a Subscription or an operator (CSV)", severity="information")
        return
    target = parent_of_copy(screen.session, target)
    app = screen.app
    app.push_screen(XrayScreen(screen.session, screen._commands, only=target))


def parent_of_copy(session: Session, target: ObjectRef) -> ObjectRef:
    """A copied CSV stands for the operator it was copied from (R-COPY-1, ``copy_source``):
    its X-ray is the parent's, since a copy has no tree of its own."""
    if target.kind != CSV:
        return target
    obj = session.store.get(CSV, target.namespace, target.name)
    if obj is None or not is_copied_csv(obj):
        return target
    namespace, name = copy_source(obj)
    return ObjectRef(CSV, namespace, name) if namespace else target
