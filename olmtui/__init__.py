"""olmtui: see what Operator Lifecycle Manager decides, and why."""

__version__ = "0.1.0"
