"""Where the cluster is and who we are: kubeconfig, context, or the pod's service account.

kubernetes-asyncio reads ``KUBECONFIG`` once at import time; olmtui reads it when a source
connects, so a test or a wrapper script can set it late. Every problem a user can fix (a
missing file, an unknown context, a kubeconfig that does not parse) becomes one
:class:`~olmtui.errors.UsageError` line, never a traceback. The kubeconfig is only read, never
written back. It and every file it names are read within bounds (``kubeconfig_files``): a
FIFO, a device, a file of gigabytes, a document nested 100,000 levels deep or a credential
no HTTP header may carry is refused with one line too, never a hang, an exhausted memory or
a crash; and kubernetes-asyncio's loader runs with its file reads and exec plugins bounded
(``kubeconfig_loader``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ipaddress
import logging
import os
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kubernetes_asyncio import config as kube_config
from kubernetes_asyncio.client import Configuration
from kubernetes_asyncio.config.kube_config import KubeConfigLoader
from yarl import URL

from olmtui.errors import UsageError
from olmtui.sources.cluster.kubeconfig_files import KubeconfigRefused, not_a_file, read_kubeconfig
from olmtui.sources.cluster.kubeconfig_loader import BoundedLoader, merged_config
from olmtui.sources.cluster.live_status import one_line

log = logging.getLogger(__name__)

SERVICE_HOST_ENV = "KUBERNETES_SERVICE_HOST"
SERVICE_ACCOUNT_DIR = Path("/var/run/secrets/kubernetes.io/serviceaccount")
DEFAULT_KUBECONFIG = Path("~/.kube/config")


@dataclass
class ClusterConfig:
    """A loaded client configuration, what to call it, and how to renew its credentials."""

    configuration: Configuration
    label: str
    loader: KubeConfigLoader | None = None
    #: The context's kubeconfig user (for the header); "" for a pod's service account.
    user: str = ""


def kubeconfig_paths(explicit: str | None) -> list[str]:
    """The kubeconfig files to merge, as kubectl picks them: ``--kubeconfig``, else the
    ``KUBECONFIG`` list (read now), else ``~/.kube/config``. Only existing files are kept;
    an explicit file that does not exist is an error, and so is any path that names a FIFO,
    a device or a directory (said as such: reading it would block or never end)."""
    if explicit:
        path = os.path.expanduser(explicit)
        _refuse_not_a_file(path, explicit)
        if not os.path.isfile(path):
            raise UsageError(f"kubeconfig not found: {explicit}")
        return [path]
    env = os.environ.get("KUBECONFIG")
    candidates = env.split(os.pathsep) if env else [str(DEFAULT_KUBECONFIG)]
    paths = [os.path.expanduser(c) for c in candidates if c]
    for path in paths:
        _refuse_not_a_file(path, path)
    return [p for p in paths if os.path.isfile(p)]


def _refuse_not_a_file(path: str, shown: str) -> None:
    what = not_a_file(path)
    if what is not None:
        raise UsageError(f"kubeconfig {shown} is {what}, not a regular file; not read")


#: How long an exec credential plugin may run before olmtui gives up on it (seconds).
EXEC_TIMEOUT = 30.0


async def load_cluster_config(
    kubeconfig: str | None, context: str | None, exec_timeout: float = EXEC_TIMEOUT
) -> ClusterConfig:
    """Load the client configuration for ``context`` (or the current one).

    With no kubeconfig file at all and ``KUBERNETES_SERVICE_HOST`` set, olmtui is running in
    a pod and uses its service account (whose token the library re-reads as it rotates).
    Loading runs the context's exec credential plugin, if any: one that does not answer
    within ``exec_timeout`` seconds is killed and is a UsageError, not a hang.
    """
    paths = kubeconfig_paths(kubeconfig)
    if not paths:
        if os.environ.get(SERVICE_HOST_ENV) and not context:
            return _in_cluster_config()
        where = os.environ.get("KUBECONFIG") or str(DEFAULT_KUBECONFIG)
        hint = " (--context needs a kubeconfig)" if context else ""
        raise UsageError(f"no kubeconfig found at {where}{hint}")
    shown = ", ".join(paths)
    documents = _documents(paths)
    names, current = _contexts(documents, shown)
    if context is not None and context not in names:
        known = ", ".join(sorted(names)) or "none"
        raise UsageError(f"context {context!r} not found in {shown} (known: {known})")
    if context is None and not current:
        raise UsageError(f"kubeconfig {shown} has no current-context; pass --context")
    name = context or current
    configuration = Configuration()
    try:
        loader = BoundedLoader(merged_config(documents), name, exec_timeout)
        await asyncio.wait_for(loader.load_and_set(configuration), exec_timeout)
    except TimeoutError:
        raise UsageError(
            f"cannot use context {name!r}: its credentials (exec plugin) did not come "
            f"within {exec_timeout:g} s"
        ) from None
    except Exception as exc:  # exec plugins and bad certificates fail in many ways
        raise UsageError(f"cannot use context {name!r}: {one_line(str(exc))}") from None
    proxy_from_environment(configuration)
    return ClusterConfig(configuration, name, loader, _context_user(loader))


def _context_user(loader: KubeConfigLoader) -> str:
    """The ``user`` the loaded context names ("" when it names none)."""
    context = loader.current_context
    entry = context.get("context") if isinstance(context, Mapping) else None
    user = entry.get("user") if isinstance(entry, Mapping) else None
    return str(user) if user else ""


def proxy_from_environment(configuration: Configuration) -> None:
    """Resolve the proxy for the cluster once, as kubectl does: the cluster's ``proxy-url``
    if the kubeconfig has one, else ``HTTPS_PROXY``/``HTTP_PROXY`` for the server's scheme
    unless ``NO_PROXY`` exempts its host or the host is ``localhost`` or a loopback address
    (credentials in the proxy's URL become a ``Proxy-Authorization`` header). The HTTP
    session then never consults the environment per request (see ``LiveSource._client``)."""
    if configuration.proxy:
        return
    url = URL(configuration.host or "")
    host = url.host or ""
    if _is_loopback(host) or urllib.request.proxy_bypass(host):
        return
    setting = urllib.request.getproxies().get(url.scheme or "")
    if not setting:
        return
    proxy = URL(setting)
    configuration.proxy = str(proxy.with_user(None))
    if proxy.user is not None or proxy.password is not None:
        credentials = f"{proxy.user or ''}:{proxy.password or ''}".encode()
        basic = base64.b64encode(credentials).decode("ascii")
        configuration.proxy_headers = {"Proxy-Authorization": f"Basic {basic}"}


def _is_loopback(host: str) -> bool:
    """Hosts kubectl never sends through a proxy."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def context_names(kubeconfig: str | None) -> list[str]:
    """The context names of the kubeconfig a session was started with (``:ctx`` completes
    them); none when it cannot be read now."""
    try:
        paths = kubeconfig_paths(kubeconfig)
        return _contexts(_documents(paths), ", ".join(paths))[0]
    except UsageError:
        return []


def kubeconfig_contexts(kubeconfig: str | None) -> tuple[list[str], str]:
    """The context names of a kubeconfig (``None``: ``$KUBECONFIG``, then ``~/.kube/config``)
    and its current context ("" when none): ``check --fleet``'s targets. UsageError when it
    cannot be read."""
    paths = kubeconfig_paths(kubeconfig)
    return _contexts(_documents(paths), ", ".join(paths))


def _documents(paths: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Each kubeconfig file as a mapping, read within ``kubeconfig_files``' limits."""
    try:
        return [(path, read_kubeconfig(path)) for path in paths]
    except KubeconfigRefused as exc:
        raise UsageError(f"cannot read kubeconfig {one_line(str(exc))}") from None


def _contexts(documents: list[tuple[str, dict[str, Any]]], shown: str) -> tuple[list[str], str]:
    """Context names and the current context of the merged files, by kubectl's rules: the
    first file that names a context wins, and so does the first that sets a current
    context."""
    names: list[str] = []
    current = ""
    try:
        for _, doc in documents:
            for entry in doc.get("contexts") or []:
                name = str(entry["name"])
                if name not in names:
                    names.append(name)
            current = current or str(doc.get("current-context") or "")
    except (LookupError, TypeError, ValueError) as exc:
        raise UsageError(f"cannot read kubeconfig {shown}: {one_line(str(exc))}") from None
    return names, current


def _in_cluster_config() -> ClusterConfig:
    configuration = Configuration()
    try:
        kube_config.load_incluster_config(  # type: ignore[no-untyped-call]
            client_configuration=configuration,
            token_filename=str(SERVICE_ACCOUNT_DIR / "token"),
            cert_filename=str(SERVICE_ACCOUNT_DIR / "ca.crt"),
        )
    except kube_config.ConfigException as exc:
        raise UsageError(f"cannot use the in-cluster service account: {exc}") from None
    proxy_from_environment(configuration)
    return ClusterConfig(configuration, f"in-cluster ({configuration.host})")


async def keep_credentials_fresh(
    cluster: ClusterConfig, interval: float = 60, timeout: float = EXEC_TIMEOUT
) -> None:
    """Re-run the kubeconfig's authentication every ``interval`` seconds, forever.

    This is what ``config.refresh_token`` does for exec and GCP credentials, widened to OIDC
    and ``tokenFile`` users: each pass only re-runs an exec plugin or refreshes an OIDC token
    once it has expired, so static tokens cost nothing. A failed refresh is logged; the
    stream that then gets a 401 shows it to the user. An exec plugin that does not answer
    within ``timeout`` seconds is killed (``BoundedLoader``); any other refresh still running
    then (an OIDC token endpoint that never answers) is logged and left to finish: no second
    one is started beside it.
    """
    if cluster.loader is None:
        return
    loader = cluster.loader
    refresh: asyncio.Future[None] | None = None
    while True:
        await asyncio.sleep(interval)
        if refresh is None or refresh.done():
            refresh = asyncio.ensure_future(loader.load_and_set(cluster.configuration))
        try:
            # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancellation that
            # lands as the refresh ends, and the session's stop then waited for ever
            async with asyncio.timeout(timeout):
                await asyncio.shield(refresh)
        except asyncio.CancelledError:
            await _let_finish(refresh)
            raise
        except TimeoutError:
            log.warning("credential refresh still running after %g s", timeout)
        except Exception as exc:  # keep the session; the next request reports the 401
            log.warning("credential refresh failed: %s", one_line(str(exc)))


async def _let_finish(refresh: asyncio.Future[None], timeout: float = 5.0) -> None:
    """Let a refresh that is running when the session stops end inside the event loop: an
    exec plugin cut off mid-run leaves its pipes open until garbage collection, which then
    fails (and prints a traceback) once the loop is closed."""
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.wait_for(refresh, timeout)
