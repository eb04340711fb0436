"""What the model derives and says, as plain records: the derived facts (``types``),
the finding texts (``findings``) and catalog content (``catalog``). Readers of the
model (the reports, the screens) depend on these and on nothing else of it."""
