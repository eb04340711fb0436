"""The kubeconfig and the files it names, read so that no file can hang, exhaust or crash olmtui.

A kubeconfig is not always the user's own work (a CI secret, a download, a colleague's copy),
and it names more files: ``tokenFile``, ``client-certificate``, ``client-key`` and
``certificate-authority``. kubernetes-asyncio opens them all with a plain ``open``: a FIFO
blocks it forever, ``/dev/zero`` is read until the kernel kills the process, and a kubeconfig
nested 100,000 levels deep ends in a ``RecursionError``. Here every one of them is read as the
snapshot reader reads its input (``input_limits.read_regular``: regular files only, opened
without blocking and checked on the open descriptor, read up to a cap), and the kubeconfig is
parsed with the snapshot's YAML limits (nesting, aliases). Each refusal is a
:class:`KubeconfigRefused` that names the file, for one line and exit 2.
"""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from olmtui.sources.input_limits import Refused, read_regular, special_file
from olmtui.sources.snapshots.snapshot_documents import parse_documents

#: The largest kubeconfig read: real ones are kilobytes, a few hundred contexts with their
#: certificates a few megabytes.
MAX_KUBECONFIG_BYTES = 16 << 20
#: The largest file a kubeconfig names (a token, a certificate, a key, a CA bundle).
MAX_CREDENTIAL_BYTES = 4 << 20
#: The keys of a kubeconfig's cluster and user that name a file, and what they hold.
CLUSTER_FILES = {"certificate-authority": "certificate authority"}
USER_FILES = {"client-certificate": "client certificate", "client-key": "client key"}

#: What HTTP forbids in a header value (Go's ``httpguts.ValidHeaderFieldValue``): control
#: characters other than the tab. aiohttp would refuse such a token deep in a request.
_NOT_IN_A_HEADER = re.compile("[\x00-\x08\x0a-\x1f\x7f]")


class KubeconfigRefused(ValueError):
    """A kubeconfig, or a file it names, that olmtui will not read; the message names it."""


def not_a_file(path: str) -> str | None:
    """What ``path`` is when it exists but is no regular file (``a FIFO``, ``a directory``),
    from ``stat`` alone: it is never opened here. ``None`` for a regular or missing file."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    special = special_file(mode)
    if special is not None:
        return special
    return None if os.path.isfile(path) else "a directory"


def read_kubeconfig(path: str) -> dict[str, Any]:
    """One kubeconfig file as a mapping; ``KubeconfigRefused`` naming the file otherwise.

    A document nested deeper than ``input_limits.MAX_DEPTH`` or whose aliases expand past
    ``input_limits.MAX_ALIAS_NODES`` is refused before anything walks it."""
    try:
        data = read_regular(Path(path), MAX_KUBECONFIG_BYTES)
    except Refused as refused:
        raise KubeconfigRefused(f"{path}: {refused}") from None
    except OSError as exc:
        raise KubeconfigRefused(f"{path}: {exc.strerror or exc}") from None
    values = []
    for document in parse_documents(data, json_format=False, fast=False):
        if document.problem is not None:
            raise KubeconfigRefused(f"{path} {document.problem}")
        if document.value is not None:
            values.append(document.value)
    if len(values) != 1 or not isinstance(values[0], dict):
        raise KubeconfigRefused(f"{path} is not one YAML mapping")
    return values[0]


def credential_file(path: str, what: str) -> bytes:
    """The bytes of a file a kubeconfig names (``what`` says which, for the message)."""
    try:
        return read_regular(Path(path), MAX_CREDENTIAL_BYTES)
    except Refused as refused:
        raise KubeconfigRefused(f"its {what} {path}: {refused}") from None
    except OSError as exc:
        raise KubeconfigRefused(f"its {what} {path}: {exc.strerror or exc}") from None


def with_files_inlined(
    entry: Mapping[str, Any], files: Mapping[str, str], base: str
) -> dict[str, Any]:
    """``entry`` (a kubeconfig's cluster or user) with each file it names read here and put
    in the ``*-data`` field instead, so that kubernetes-asyncio never opens the file itself:
    it writes the data to a private temporary file for ``ssl``. A ``*-data`` field already
    there wins, as in kubectl. A client key is checked for a passphrase
    (:func:`refuse_encrypted_key`).
    """
    inlined = dict(entry)
    for key, what in files.items():
        name = inlined.pop(key, None)
        if not name or inlined.get(f"{key}-data"):
            continue
        path = os.path.normpath(os.path.join(base, str(name)))
        data = credential_file(path, what)
        if key == "client-key":
            refuse_encrypted_key(data, path)
        inlined[f"{key}-data"] = base64.standard_b64encode(data).decode("ascii")
    return inlined


def refuse_encrypted_key(pem: bytes, where: str) -> None:
    """Refuse a client key protected by a passphrase: given one, OpenSSL asks for the
    passphrase on the terminal (``ssl.SSLContext.load_cert_chain`` without ``password``),
    which hangs a command run by CI and garbles the dashboard. Both PEM forms say so in
    their text: PKCS #8 (``BEGIN ENCRYPTED PRIVATE KEY``) and OpenSSL's traditional one
    (``Proc-Type: 4,ENCRYPTED``)."""
    if b"ENCRYPTED" in pem:
        raise KubeconfigRefused(
            f"its client key {where} is protected by a passphrase, which olmtui does not ask "
            "for; give it the key without one (openssl pkey -in KEY -out PLAIN_KEY)"
        )


def token_from_file(data: bytes, path: str) -> str:
    """A ``tokenFile``'s token, trimmed of surrounding white space as client-go trims it."""
    try:
        token = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise KubeconfigRefused(f"its tokenFile {path} is not UTF-8 text") from None
    if not token:
        raise KubeconfigRefused(f"its tokenFile {path} is empty")
    return token


def refuse_unsendable(credential: str, what: str) -> None:
    """Refuse a credential no HTTP header may carry (a line break, a control character):
    aiohttp would raise inside the first request. The credential itself is never shown."""
    if _NOT_IN_A_HEADER.search(credential):
        raise KubeconfigRefused(
            f"its {what} holds a line break or another control character, which no HTTP "
            "header may carry (the value is not shown)"
        )
