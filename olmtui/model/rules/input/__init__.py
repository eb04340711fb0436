"""What the model may not conclude about what the input did not show: kinds it could
not read (R-SRC-*) and namespaces a ``--namespace`` session did not read (R-DOC-10)."""
