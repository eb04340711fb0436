"""The text ``olmtui explain`` prints: one namespace's ``resolution[]`` entry, cause first.

Rendered from the same entry dict the JSON report carries (``json_report.resolution_json``),
so ``explain`` and ``check`` never disagree. With a Subscription named, only what concerns it
is kept (its operators and their dependencies, the constraints that name it), and the text
says that OLM resolves the namespace as a whole. Names and messages come from the cluster and
the catalogs: control characters in them are shown escaped, never obeyed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from olmtui.model.rules.resolution.operators import brought_by
from olmtui.model.viewmodels.timeline import (
    Timeline,
    left_out_words,
    reference_words,
    timeline_lines,
)
from olmtui.report.json_report import without_surrogates
from olmtui.report.text_report import Writer, resolution_lines, safe, why

#: What each status means for OLM's next sync of the namespace.
_OUTCOMES = {
    "resolved": "OLM's next resolution succeeds",
    "unsatisfiable": "OLM's next resolution fails: ResolutionFailed (ConstraintsNotSatisfiable) "
    "on every Subscription of the namespace, nothing installed or upgraded there",
    "failed": "OLM's next resolution stops with an error: ResolutionFailed "
    "(ErrorPreventedResolution) on every Subscription of the namespace",
    "not-evaluated": "olmtui cannot predict OLM's next resolution: an input is missing",
}


def for_subscription(entry: dict[str, Any], subscription: str) -> dict[str, Any]:
    """The part of a namespace's entry that concerns Subscription ``subscription``: the
    operators it brings (its candidate and, transitively, their dependencies), the changes
    among them, and the constraints that name it (all of them when none does, so that a
    cause is never hidden)."""
    ref = f"Subscription {entry['namespace']}/{subscription}"
    kept = brought_by(((o["name"], o["for"]) for o in entry["operators"]), ref)
    naming = [c for c in entry["explanation"] if ref in c["objects"]]
    return {
        **entry,
        "operators": [o for o in entry["operators"] if o["name"] in kept],
        "changes": [c for c in entry["changes"] if c in kept],
        "explanation": naming or entry["explanation"],
    }


#: Entries of the namespace's timeline ``explain`` ends with (the newest).
EXPLAIN_TIMELINE_ENTRIES = 15


def _timeline_lines(
    out: Writer, namespace: str, shown: Timeline, reference: dt.datetime | None, live: bool
) -> None:
    """What happened in the namespace, oldest first (R-EVD-11): UTC times, the date where it
    changes, relative to ``reference``, and what the list leaves out."""
    out.line()
    out.wrapped(f"what happened in namespace {namespace} ({reference_words(reference, live)}):", 0)
    if not shown.entries:
        out.line("  nothing in the input records a time for its objects")
    for words in left_out_words(shown):
        out.line(f"  {words}")
    for line in timeline_lines(shown.entries, reference, live):
        when = f"{line.date or ' ' * 10} {line.time}"
        relative = f"  ({line.relative})" if line.relative else ""
        entry = line.entry
        out.wrapped(f"{when}{relative}  {safe(str(entry.ref))}: {safe(entry.what)}", 2, 21)


def render_explain(
    entry: dict[str, Any],
    subscription: str | None = None,
    not_head: Sequence[tuple[str, str]] = (),
    timeline: Timeline | None = None,
    reference: dt.datetime | None = None,
    live: bool = False,
) -> str:
    """The explanation of one namespace (or, with ``subscription``, of what concerns one of
    its Subscriptions): the outcome, then the cause first (the constraints with their objects
    and fixes), what the next InstallPlan holds, or why resolution stopped or was not done.
    ``not_head``: ``(Subscription name, why)`` for each one the resolver does not move to its
    channel head (R-RES-17), said after the operators. Then the namespace's ``timeline``
    when given, relative to ``reference`` (the gather time; now when ``live``)."""
    out = Writer(colour=False)
    ns = safe(entry["namespace"])
    shown = entry if subscription is None else for_subscription(entry, subscription)
    subject = (
        f"namespace {ns}" if subscription is None else f"Subscription {ns}/{safe(subscription)}"
    )
    out.wrapped(f"olmtui explain {subject}: {_OUTCOMES[entry['status']]}", 0, 4)
    out.line("(a prediction from the objects and catalog content given)")
    out.line()
    resolution_lines(out, shown, 0)
    if shown["status"] == "resolved" and shown["operators"]:
        out.line("  operators of the solution:")
        for operator in shown["operators"]:
            out.wrapped(
                f"{safe(operator['name'])} (catalog {safe(operator['catalog'])}; "
                f"{safe(why(operator))})",
                4,
                4,
            )
    for name, because in not_head:
        if subscription is None or name == subscription:
            out.wrapped(f"Subscription {ns}/{safe(name)}: {safe(because)}", 2, 4)
    if subscription is not None:
        out.line()
        hidden = len(entry["explanation"]) - len(shown["explanation"])
        more = f"; {hidden} more constraints do not name this Subscription" if hidden else ""
        out.wrapped(
            f"OLM resolves namespace {ns} as a whole: every Subscription there succeeds or "
            f"fails together{more} (`olmtui explain {ns}` shows everything).",
            0,
        )
    if timeline is not None:
        _timeline_lines(out, ns, timeline, reference, live)
    return without_surrogates("\n".join(out.lines) + "\n")
