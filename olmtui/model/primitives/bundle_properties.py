"""Bundle properties as OLM writes them onto cluster objects.

OLM stores a bundle's properties as JSON text, ``{"properties": [...]}``: in the
``operatorframework.io/properties`` annotation of each CSV it creates from a bundle, and
in an InstallPlan's bundle lookups and unpacked-bundle step references (R-IP-4). Their
``olm.package`` property names the bundle's package and version, which is how an InstallPlan
step or a CSV with no Subscription is tied to its package.
"""

from __future__ import annotations

from typing import Any

from olmtui.model.primitives import json_text
from olmtui.objects import text_of

PROPERTIES_ANNOTATION = "operatorframework.io/properties"


def package_property(properties: Any) -> tuple[str | None, str | None]:
    """``(packageName, version)`` of the first ``olm.package`` property, given as the JSON
    text OLM stores or as the parsed value (the ``{"properties": [...]}`` mapping or the list
    itself); ``(None, None)`` when there is none or the text does not parse."""
    if isinstance(properties, str):
        try:
            properties = json_text.loads(properties)
        except ValueError:
            return None, None
    if isinstance(properties, dict):
        properties = properties.get("properties")
    for prop in properties if isinstance(properties, list) else ():
        if isinstance(prop, dict) and prop.get("type") == "olm.package":
            value = prop.get("value") or {}
            if isinstance(value, dict):  # JSON text: never checked at the cache (R-SRC-4)
                return text_of(value.get("packageName")), text_of(value.get("version"))
    return None, None
