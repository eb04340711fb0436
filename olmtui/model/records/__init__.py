"""What the model derives and says, as plain records: the derived facts (``types``),
the finding texts (``findings``), catalog content (``catalog``) and the diagnosis
(``diagnosis``: causes, incidents, remedies). Readers of the
model (the reports, the screens) depend on these and on nothing else of it."""
