"""The incremental machinery: the engine wired to the Store's change feed, the order it
recomputes in (``stages``), the indexes that find what a change affects, and the
health findings kept per subject (plus ``health``, the same findings at once)."""
