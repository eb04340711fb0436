"""Kubeconfig files that point kubectl or kubernetes-asyncio at the loopback server.

The server speaks plain HTTP and does no authentication; a bearer token can still be
written so that clients exercise their token code paths.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


def kubeconfig(
    server_url: str,
    *,
    context: str = "loopback",
    namespace: str | None = None,
    user: str = "olmtui-test",
    token: str | None = None,
) -> dict[str, Any]:
    """The kubeconfig document: one cluster, one user, one (current) context."""
    context_entry: dict[str, Any] = {"cluster": context, "user": user}
    if namespace:
        context_entry["namespace"] = namespace
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "preferences": {},
        "clusters": [{"name": context, "cluster": {"server": server_url}}],
        "users": [{"name": user, "user": {"token": token} if token else {}}],
        "contexts": [{"name": context, "context": context_entry}],
        "current-context": context,
    }


def write_kubeconfig(
    path: str | Path,
    server_url: str,
    *,
    context: str = "loopback",
    namespace: str | None = None,
    user: str = "olmtui-test",
    token: str | None = None,
) -> Path:
    """Write the kubeconfig (mode 0600, as kubectl expects) and return its path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    document = kubeconfig(server_url, context=context, namespace=namespace, user=user, token=token)
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    path.chmod(0o600)
    return path
