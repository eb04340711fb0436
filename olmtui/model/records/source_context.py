"""When and what the input is: the context line one of ``check`` and the header say first,
and the report's ``source`` block carries (``gatheredAt``, ``newestObjectTime``,
``openshiftVersion``, ``olmVersion``, ``complete``, ``incompleteBecause``)."""

from __future__ import annotations

import datetime as dt

from olmtui.frozen import frozen


@frozen
class SourceContext:
    """``gathered_at``: a must-gather's ``timestamp`` file, the moment it was taken;
    ``newest_object_time``: the newest time the objects read record (a snapshot was taken
    then or later); the OpenShift and OLM versions the input shows; and why the input is
    incomplete, one line per reason. Each is ``None`` (or empty) when the input does not
    say: never guessed."""

    gathered_at: dt.datetime | None = None
    newest_object_time: dt.datetime | None = None
    openshift_version: str | None = None
    olm_version: str | None = None
    incomplete_because: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.incomplete_because
