"""The Textual screens. They read the model and never talk to the cluster."""
