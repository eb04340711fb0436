"""CRD conversion webhooks pointing at a Service that does not exist (R-DOC-17).

A CRD with ``spec.conversion.strategy: Webhook`` sends every read and write of its objects
in a version other than the stored one through ``spec.conversion.webhook.clientConfig.service``.
OLM points the CRDs of operators that ship conversion webhooks at the operator's Service;
when the operator is removed, or its Service is gone, every such request fails, and a reinstall
can hang on it. The rule judges a CRD only when the source holds Services of the namespace
the webhook names (a live session does not watch Services: unknown is not absent).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set

from olmtui.kinds import CRD, SERVICE
from olmtui.model.records.types import Finding, ObjectRef
from olmtui.objects import Obj, meta

RULE = "R-DOC-17"


def conversion_service(crd: Obj) -> tuple[str, str] | None:
    """``(namespace, name)`` of the Service a CRD's conversion webhook calls, if it has one."""
    conversion = (crd.get("spec") or {}).get("conversion") or {}
    if not isinstance(conversion, dict) or conversion.get("strategy") != "Webhook":
        return None
    webhook = conversion.get("webhook") or conversion.get("webhookClientConfig") or {}
    config = webhook.get("clientConfig") or webhook if isinstance(webhook, dict) else {}
    service = config.get("service") if isinstance(config, dict) else None
    if not isinstance(service, dict) or not service.get("name"):
        return None
    return str(service.get("namespace") or ""), str(service["name"])


def conversion_webhook_findings(
    crds: Iterable[Obj], services: Mapping[str, Set[str]]
) -> list[Finding]:
    """R-DOC-17: one error per CRD whose conversion webhook names a Service missing from a
    namespace whose Services are in the source. ``services``: namespace -> Service names,
    only for namespaces whose Services were read."""
    found: list[Finding] = []
    for crd in crds:
        target = conversion_service(crd)
        if target is None:
            continue
        namespace, name = target
        held = services.get(namespace)
        if held is None or name in held:
            continue
        found.append(
            Finding(
                "error",
                "ConversionWebhookServiceMissing",
                CRD,
                "",
                meta(crd).get("name") or "",
                f"This CRD converts its versions through a webhook at Service "
                f"{namespace}/{name}, which does not exist: every request for its objects in "
                "a version other than the stored one fails, and so do the reads and deletes "
                "a reinstall of its operator needs. Reinstall the operator that owns the CRD "
                "(OLM recreates the Service), or, if that operator is gone for good, delete "
                "its remaining objects and the CRD.",
                RULE,
                related=(ObjectRef(SERVICE, namespace, name),),
            )
        )
    return found
