"""Saved snapshots as a source: files, directories, must-gathers and tar archives,
split into documents, parsed on every core and loaded into the Store."""
