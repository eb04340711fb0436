"""The mark on objects a loader made up rather than read, shared by the loaders and the model.

A snapshot may hold objects in namespaces it has no Namespace object for; the loader then
synthesizes the Namespace, and its labels are unknown, so the model does not judge label
drift (R-OG-5) on it. Kept apart from the engine so a loader can set the mark without
importing the rules that read it.
"""

from __future__ import annotations

#: Set by the snapshot loader on Namespaces it synthesizes.
INFERRED_ANNOTATION = "olmtui.dev/inferred"
