"""The live cluster as a source: kubeconfig and credentials read within bounds,
discovery, GET-only HTTP, list+watch informers and their status."""
