"""Where objects come from: snapshot files, the live cluster, catalogs. They only feed the cache."""
