"""The diagnosis of issue 26: what causes what, and the plans that fix it (``remedies``)."""
