"""Where objects come from: the live cluster (``cluster``), saved snapshots
(``snapshots``) and catalog content (``catalog``). They only feed the cache."""
