"""kubernetes-asyncio's kubeconfig loader, with every file and credential read within bounds.

The library's loader is kept for what it does well (contexts, OIDC, GCP, refresh); what it
would do unbounded is overridden here:

- the merged kubeconfig is built from files already read by ``kubeconfig_files`` (the
  library's merger would open and parse them again, without limits);
- ``tokenFile`` is read on every (re)load as before, but as a regular file of bounded size;
- the files of the cluster and user in use (certificate authority, client certificate and
  key) are read here and handed to the library as data, and a client key protected by a
  passphrase is refused before OpenSSL prompts for it on the terminal;
- an exec plugin runs with a timeout and is killed when it ends early (``exec_credentials``);
- a credential that no HTTP header may carry, or a server URL that holds a user name and
  password, is refused with one line (the secret never shown) before any request is sent.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Sequence
from typing import Any

from kubernetes_asyncio.config.config_exception import ConfigException
from kubernetes_asyncio.config.dateutil import parse_rfc3339
from kubernetes_asyncio.config.kube_config import ConfigNode, FileOrData, KubeConfigLoader
from yarl import URL

from olmtui.sources.cluster.exec_credentials import exec_credential
from olmtui.sources.cluster.kubeconfig_files import (
    CLUSTER_FILES,
    USER_FILES,
    KubeconfigRefused,
    credential_file,
    refuse_encrypted_key,
    refuse_unsendable,
    token_from_file,
    with_files_inlined,
)

#: The kubeconfig's lists merged by name.
MERGED_LISTS = ("clusters", "contexts", "users")
#: An exec credential is renewed this long before it expires (as kubernetes-asyncio does).
EXPIRY_MARGIN = datetime.timedelta(minutes=5)
#: The cluster's fields that must be strings: else the library fails an assertion (no
#: message) or aiohttp raises ``TypeError`` inside the first request (a crash, exit 3).
STRING_FIELDS = ("server", "proxy-url", "tls-server-name")
#: Where the library keeps the files of an exec plugin's client certificate, and their keys.
EXEC_FILES = (("cert_file", "clientCertificateData"), ("key_file", "clientKeyData"))


def merged_config(documents: Sequence[tuple[str, dict[str, Any]]]) -> ConfigNode:
    """The kubeconfig files (path, document) merged by kubectl's rules: the first file that
    names a cluster, context or user wins, and so does the first that sets a current
    context. Each entry remembers its file, which relative paths in it are relative to.
    Entries are named by their ``name`` only (never by their content: a user holds secrets,
    and the library puts these names in its error messages)."""
    first_path, first = documents[0]
    merged: dict[str, Any] = {**first, **{item: [] for item in MERGED_LISTS}}
    merged["current-context"] = ""
    for path, document in documents:
        for item in MERGED_LISTS:
            entries = document.get(item) or []
            if not isinstance(entries, list):
                raise KubeconfigRefused(f"{path}: {item} is not a list")
            for entry in entries:
                if not isinstance(entry, dict) or "name" not in entry:
                    raise KubeconfigRefused(f"{path}: an entry of {item} has no name")
                if all(known.value["name"] != entry["name"] for known in merged[item]):
                    name = f"{path}/{item}[name={entry['name']}]"
                    merged[item].append(ConfigNode(name, entry, path))
        merged["current-context"] = merged["current-context"] or document.get("current-context")
    return ConfigNode(first_path, merged, first_path)


class BoundedLoader(KubeConfigLoader):
    """A ``KubeConfigLoader`` over :func:`merged_config` that reads within bounds (see the
    module docstring); ``exec_timeout`` bounds each run of an exec plugin."""

    def __init__(self, config: ConfigNode, context: str, exec_timeout: float) -> None:
        super().__init__(config_dict=config, active_context=context, config_base_path=None)
        self.exec_timeout = exec_timeout

    def _load_user_token(self) -> bool:
        user = self._user
        assert user is not None
        token_file = user.safe_get("tokenFile")
        if user.safe_get("token") or not token_file:
            return bool(super()._load_user_token())
        path = os.path.normpath(os.path.join(self._get_base_path(user.path), str(token_file)))
        self.token = f"Bearer {token_from_file(credential_file(path, 'tokenFile'), path)}"
        return True

    def _load_cluster_info(self) -> None:
        cluster = self._cluster
        assert cluster is not None
        for key in STRING_FIELDS:
            value = cluster.safe_get(key)
            if value is not None and not isinstance(value, str):
                raise KubeconfigRefused(f"its cluster's {key} is not a string")
        if str(cluster.safe_get("server") or "").startswith("https"):
            base = self._get_base_path(cluster.path)
            self._cluster = _inlined(cluster, CLUSTER_FILES, base)
            if self._user is not None and "cert_file" not in self.__dict__:
                self._user = _inlined(self._user, USER_FILES, base)
        super()._load_cluster_info()

    async def load_from_exec_plugin(self) -> bool:
        """The library's, with the plugin run by ``exec_credentials`` and a client key it
        prints checked for a passphrase."""
        expiry = getattr(self, "exec_plugin_expiry", None)
        now = datetime.datetime.now(datetime.UTC)
        if expiry is not None and expiry - EXPIRY_MARGIN > now:
            return True
        assert self._user is not None
        status = await exec_credential(self._user["exec"], self.exec_timeout)
        if not isinstance(status, dict):
            raise ConfigException("exec: malformed response: status is not an object")
        if status.get("token"):
            self.token = f"Bearer {status['token']}"
            if status.get("expirationTimestamp"):
                self.exec_plugin_expiry = parse_rfc3339(status["expirationTimestamp"])
            return True
        if status.get("clientCertificateData") and status.get("clientKeyData"):
            refuse_encrypted_key(str(status["clientKeyData"]).encode(), "from the exec plugin")
            for attribute, key in EXEC_FILES:
                data = FileOrData(status, None, data_key_name=key, base64_file_content=False)
                setattr(self, attribute, data.as_file())
            return True
        return False

    def _set_config(self, client_configuration: Any) -> None:
        token = getattr(self, "token", None)
        if isinstance(token, str):
            refuse_unsendable(token, "token" if token.startswith("Bearer ") else "credential")
        server = getattr(self, "host", None)
        if isinstance(server, str):
            refuse_credentials_in(server)
        super()._set_config(client_configuration)


def _inlined(node: ConfigNode, files: dict[str, str], base: str) -> ConfigNode:
    return ConfigNode(node.name, with_files_inlined(node.value, files, base), node.path)


def refuse_credentials_in(server: str) -> None:
    """Refuse a server URL with a user name or password in it (``https://user:pw@host``):
    aiohttp cannot send it beside the kubeconfig's credentials, and olmtui shows the
    server's URL in its header and its messages. The message shows the URL without them."""
    try:
        url = URL(server)
    except ValueError as exc:
        raise KubeconfigRefused(f"its server is not a URL ({exc})") from None
    if url.user is not None or url.password is not None:
        shown = url.with_user(None)
        raise KubeconfigRefused(
            f"its server URL holds a user name or password (server {shown}), which olmtui "
            "does not send: put the credentials in the kubeconfig's user instead"
        )
