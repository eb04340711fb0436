"""``p`` on an incident (Overview, Findings): its root's remedy (R-DIAG-9) tried on a copy
of the state, as ``olmtui whatif`` tries changes: the steps with their commands (shown, never
run), whether it was simulated, what OLM would do next, and the incidents and findings that
would clear and appear. Esc closes it.

The session's own cache is never tried on (the screens show it): the Analysis copies the
state on the UI thread and the trial runs over that copy in a worker, since it can take half
a second on a big cluster. Every text comes from the cluster: plain ``Text``, made inert.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static
from textual.worker import get_current_worker

from olmtui.model.diagnosis.incidents import Diagnosis
from olmtui.model.diagnosis.remedies.steps import NOT_SIMULATED
from olmtui.model.records.diagnosis import Remedy
from olmtui.model.records.types import Finding
from olmtui.pipeline.trial_diagnosis import RemedyPreview
from olmtui.report.whatif_report import incident_line
from olmtui.ui import palette
from olmtui.ui.inert import inert_text
from olmtui.ui.widgets.inert_static import InertStatic

if TYPE_CHECKING:
    from olmtui.ui.screens.base import TableScreen

#: What the panel says while the trial runs.
TRYING = "trying the remedy on a copy of the state…"


def _finding_line(finding: Finding) -> str:
    where = f"{finding.namespace}/{finding.name}" if finding.namespace else finding.name
    return " ".join(p for p in (finding.severity, finding.code, finding.kind, where) if p)


def _section(text: Text, title: str, lines: list[str], mark: str) -> None:
    text.append(f"\n{title} ({len(lines)}):", style="bold")
    for line in lines or ["none"]:
        text.append(f"\n  {mark} {line}" if lines else f"\n  {line}")


def verdict(remedy: Remedy) -> str:
    """ "simulated: <outcome>", or "not simulated: <missing>", or, when the trial ran and
    showed the remedy fails, what would happen instead; a plan never tried says so."""
    if remedy.verified == "simulated":
        return f"simulated: {remedy.outcome or 'the incident clears'}"
    if remedy.missing == NOT_SIMULATED:  # as planned, not tried yet (``Analysis.remedy``)
        return "not tried yet: p tries it on a copy of the state"
    if remedy.missing is not None:
        return "not simulated: " + remedy.missing.removeprefix("not simulated: ")
    return f"not simulated: it fails: {remedy.outcome}" if remedy.outcome else "not simulated"


def preview_text(preview: RemedyPreview) -> Text:
    """The panel: the incident, the remedy's steps and verdict, then what the trial showed."""
    text = Text(f"Remedy of {preview.incident.id}", style="bold")
    text.append(f"\n{incident_line(preview.incident)}", style=palette.MUTED)
    remedy = preview.remedy
    if remedy is None:
        text.append(f"\n\nno remedy: {preview.why}")
        return inert_text(text)
    text.append("\n\nsteps:", style="bold")
    for number, step in enumerate(remedy.steps, 1):
        text.append(f"\n {number}. {step.text}")
        if step.command:
            text.append(f"\n    $ {step.command}", style=palette.MUTED)
    text.append(f"\n\n{verdict(remedy)}")
    trial = preview.trial
    if trial is None:
        if not remedy.missing:  # the verdict says why already when it names what is missing
            text.append(f"\nnot tried: {preview.why}", style=palette.MUTED)
        return inert_text(text)
    outcome = trial.outcome
    text.append("\nOLM next:", style="bold")
    for line in outcome.next or ("nothing olmtui models",):
        text.append(f"\n  - {line}")
    _section(text, "Incidents that clear", [incident_line(i) for i in trial.cleared], "-")
    _section(text, "Incidents that appear", [incident_line(i) for i in trial.new], "+")
    _section(text, "Findings that clear", [_finding_line(f) for f in outcome.cleared], "-")
    _section(text, "Findings that appear", [_finding_line(f) for f in outcome.new], "+")
    return inert_text(text)


class RemedyPreviewScreen(ModalScreen[None]):
    """The preview panel; ``task`` (from ``Analysis.preview_remedy``) runs in a worker."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "Close")]

    DEFAULT_CSS = """
    RemedyPreviewScreen { align: center middle; }
    RemedyPreviewScreen > VerticalScroll { width: 100%; max-width: 120; height: auto;
        max-height: 100%; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, task: Callable[[], RemedyPreview]) -> None:
        super().__init__()
        self._trial = task
        #: The preview once the trial ended (tests and the snapshot read it).
        self.preview: RemedyPreview | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield InertStatic(Text(TRYING, style=palette.MUTED), id="remedy-preview")

    def on_mount(self) -> None:
        self.run_worker(self._try, thread=True, group="remedy-preview", exit_on_error=False)

    def _try(self) -> None:
        try:
            preview: RemedyPreview | str = self._trial()
        except Exception as exc:  # a bug in a trial is said in the panel, never fatal
            preview = f"olmtui could not try the remedy: {exc}"
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show, preview)

    def _show(self, preview: RemedyPreview | str) -> None:
        if isinstance(preview, str):
            shown = Text(preview, style=palette.ERROR)
        else:
            self.preview = preview
            shown = preview_text(preview)
        for panel in self.query("#remedy-preview").results(Static):  # closed meanwhile
            panel.update(shown)


def open_preview(screen: TableScreen, diagnosis: Diagnosis | None, root: int | None) -> None:
    """``p``: the preview of the incident rooted at finding ``root`` (the row's), or a note
    when the row is no incident."""
    if diagnosis is None or root is None:
        screen.notify("p: select an incident (a finding) to preview its remedy")
        return
    task = screen.session.analysis.preview_remedy(diagnosis, root)
    screen.app.push_screen(RemedyPreviewScreen(task))
