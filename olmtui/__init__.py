"""olmtui: see what Operator Lifecycle Manager decides, and why."""

#: The one place the version is written: the wheel's metadata takes it from here
#: (pyproject: [tool.hatch.version]).
__version__ = "0.1.0"
