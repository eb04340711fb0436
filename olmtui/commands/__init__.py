"""Sub-commands of the ``olmtui`` CLI, one module each (see ``olmtui/cli.py``)."""
