"""Evidence beyond OLM's own objects (R-EVD-*): the pods a catalog runs as."""
