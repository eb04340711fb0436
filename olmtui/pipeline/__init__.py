"""The one place that wires a source to what is derived from it: store -> catalogs -> model
-> analysis.

Every mode (``olmtui check`` on a snapshot, the sample or the live cluster, ``olmtui replay``,
the live dashboard and ``olmtui demo``) builds its :class:`~olmtui.pipeline.session.Session`
with :mod:`olmtui.pipeline.build`; only the source differs. Each Session carries its
:class:`~olmtui.pipeline.analysis.Analysis`, what the reports and the screens read. The split
keeps the screens off the sources: ``session``, ``analysis`` and the modules they use import
no source and are what ``olmtui.ui`` may import, ``build`` wires the sources in. Nothing is
imported here, so importing ``session`` loads no source.
"""
