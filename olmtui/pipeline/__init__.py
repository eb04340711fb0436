"""The one place that wires a source to what is derived from it: store -> catalogs -> model.

Every mode (``olmtui check`` on a snapshot, the sample or the live cluster, ``olmtui replay``,
the live dashboard and ``olmtui demo``) builds its :class:`~olmtui.pipeline.session.Session`
with :mod:`olmtui.pipeline.build`; only the source differs. The split keeps the screens off
the sources: ``session`` and ``catalogs`` import no source and are what ``olmtui.ui`` may
import, ``build`` wires the sources in. Nothing is imported here, so importing ``session``
loads no source.
"""
