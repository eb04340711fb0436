"""Recordings of a live cluster: the store's changes, each with the time it was seen
(``olmtui record``, ``--record``), and reading them back at any moment (``check --at``,
``replay FILE``, ``diff FILE@TIME``)."""
