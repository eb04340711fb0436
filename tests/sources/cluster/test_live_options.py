"""Retry timing of the live source: jittered exponential backoff, capped."""

from __future__ import annotations

from olmtui.sources.cluster.live_options import LiveOptions


def test_backoff_doubles_with_jitter_and_stops_at_the_cap() -> None:
    options = LiveOptions(backoff_initial=0.5, backoff_max=30)
    assert options.backoff(0) == 0.0
    for failures, ceiling in [(1, 0.5), (2, 1.0), (3, 2.0), (6, 16.0), (7, 30.0), (40, 30.0)]:
        delays = {options.backoff(failures) for _ in range(200)}
        assert all(ceiling / 2 <= d <= ceiling for d in delays), (failures, delays)
        assert len(delays) > 100, "jittered, so that many clients do not retry in step"


def test_defaults_match_the_documented_interface() -> None:
    options = LiveOptions()
    assert (options.kubeconfig, options.context, options.namespaces) == (None, None, [])
    assert (options.read_timeout, options.backoff_initial, options.backoff_max) == (90, 0.5, 5)
    assert options.packagemanifest_interval == 300


def test_silence_bounds_meet_the_heal_target() -> None:
    """A working watch ends (the ``timeoutSeconds`` it asks) well before it could
    be taken for a dead one, and a dead watch or an unanswered list page is replaced within
    the 10 s heal target, far below the 90 s read timeout."""
    options = LiveOptions()
    assert options.watch_seconds() + 2 <= options.watch_silence < 10
    assert options.list_timeout < 10 < options.read_timeout
    assert LiveOptions(watch_timeout=0.3).watch_seconds() == 1  # whole seconds, at least 1
