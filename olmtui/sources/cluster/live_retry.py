"""Patience for the reads that must succeed once: discovery when a live source connects,
and the lists of a one-shot read (``check --live``, ``explain --live``, ``snapshot``).

An API server that sheds load answers 429 (or 503) with ``Retry-After``, and a client that
gives up at once fails where client-go would have waited a second: a burst of 429s on
discovery used to end ``check --live`` with exit 2 in 3 s. These reads are asked again
with a jittered backoff that grows from ``backoff_initial`` to ``backoff_max``, waiting at
least what ``Retry-After`` asks, for as long as ``request_timeout`` allows (then the last
error is said). A connection that fails is asked again a few times only: a cluster that
cannot be reached is said in seconds, not at the timeout.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from olmtui.sources.cluster.live_http import StatusError
from olmtui.sources.cluster.live_informer import NETWORK_ERRORS, describe
from olmtui.sources.cluster.live_options import LiveOptions

T = TypeVar("T")

#: Statuses a busy or restarting API server answers with: the request may well succeed
#: later (kube-apiserver's priority and fairness answers 429; a proxy in front 502-504).
TRANSIENT_CODES = frozenset({429, 500, 502, 503, 504})
#: Tries of a request whose connection fails (refused, cut, timed out).
NETWORK_ATTEMPTS = 4


class Patience:
    """The retry budget of one read: until ``seconds`` from now."""

    def __init__(
        self,
        options: LiveOptions,
        seconds: float,
        *,
        also: frozenset[int] = frozenset(),
        timeouts: bool = False,
    ) -> None:
        self.options = options
        self.deadline = time.monotonic() + seconds
        #: Statuses retried besides :data:`TRANSIENT_CODES` (410 for a list whose continue
        #: token expired: it starts again).
        self.codes = TRANSIENT_CODES | also
        #: Whether a request that timed out is asked again (a list page: yes, within the
        #: caller's overall bound; discovery: no, a server silent that long is said at once).
        self.timeouts = timeouts

    async def call(
        self, request: Callable[[], Awaitable[T]], on_retry: Callable[[str], None] | None = None
    ) -> T:
        """``request()``, asked again after each transient failure while time is left;
        ``on_retry`` is told each failure that will be retried. Raises the last error."""
        attempt = network = 0
        while True:
            attempt += 1
            try:
                return await request()
            except StatusError as exc:
                if exc.code not in self.codes:
                    raise
                wait = max(self.options.backoff(attempt), exc.retry_after or 0.0)
                error: BaseException = exc
            except NETWORK_ERRORS as exc:
                network += 1
                timed_out = isinstance(exc, asyncio.TimeoutError)
                if network >= NETWORK_ATTEMPTS or (timed_out and not self.timeouts):
                    raise
                wait, error = self.options.backoff(attempt), exc
            if time.monotonic() + wait > self.deadline:
                raise error
            if on_retry is not None:
                on_retry(describe(error))
            await asyncio.sleep(wait)
