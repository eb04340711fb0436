"""``metav1.Status`` failure bodies, worded as kube-apiserver words them.

Clients key on ``code`` and ``reason`` (kubernetes-asyncio turns them into
``ApiException(status=code, reason=...)``; a watch ``ERROR`` event carries the same body),
so both must be exactly the real ones.
"""

from __future__ import annotations

from typing import Any

from olmtui.apiserver.resources import Resource

Obj = dict[str, Any]


def status(code: int, reason: str, message: str, details: Obj | None = None) -> Obj:
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "details": details or {},
        "code": code,
    }


def not_found(resource: Resource, name: str) -> Obj:
    return status(
        404,
        "NotFound",
        f'{resource.qualified_plural} "{name}" not found',
        {"name": name, "group": resource.group, "kind": resource.plural},
    )


def path_not_found() -> Obj:
    return status(404, "NotFound", "the server could not find the requested resource")


def forbidden(
    resource: Resource, verb: str, user: str, namespace: str | None, name: str | None = None
) -> Obj:
    subject = resource.qualified_plural + (f' "{name}"' if name else "")
    scope = f'in the namespace "{namespace}"' if namespace else "at the cluster scope"
    details: Obj = {"group": resource.group, "kind": resource.plural}
    if name:
        details = {"name": name, **details}
    message = (
        f'{subject} is forbidden: User "{user}" cannot {verb} resource '
        f'"{resource.plural}" in API group "{resource.group}" {scope}'
    )
    return status(403, "Forbidden", message, details)


def expired(message: str) -> Obj:
    return status(410, "Expired", message)


CONTINUE_EXPIRED = (
    "The provided continue parameter is too old to display a consistent list result. "
    "You can start a new list without the continue parameter, or use the continue token "
    "in this response to retrieve the remainder of the results. Continuing with the "
    "provided token results in an inconsistent list - objects that were created, "
    "modified, or deleted between the time the first chunk was returned and now may "
    "show up in the list."
)


def too_large_resource_version(message: str) -> Obj:
    """kube-apiserver's answer when asked for a resourceVersion it has not reached."""
    return status(
        504,
        "Timeout",
        f"Timeout: {message}",
        {
            "causes": [
                {"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}
            ],
            "retryAfterSeconds": 1,
        },
    )


def method_not_allowed() -> Obj:
    return status(
        405, "MethodNotAllowed", "the server does not allow this method on the requested resource"
    )


def bad_request(message: str) -> Obj:
    return status(400, "BadRequest", message)


def not_acceptable(accept: str) -> Obj:
    return status(
        406,
        "NotAcceptable",
        f"only the following media types are accepted: application/json (asked for: {accept})",
    )
