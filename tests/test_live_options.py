"""Retry timing of the live source: jittered exponential backoff, capped."""

from __future__ import annotations

from olmtui.sources.live_options import LiveOptions


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
