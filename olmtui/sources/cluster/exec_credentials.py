"""Run a kubeconfig's exec credential plugin within bounds, and never leave it behind.

kubernetes-asyncio's ``ExecProvider.run`` reads the plugin's whole output into memory, and a
caller that gives up on it (olmtui's timeout) leaves the plugin running: an orphan after
olmtui has exited, whose pipes the garbage collector then closes on a closed event loop
(a traceback printed after olmtui's last line). Here the plugin is killed and reaped inside
the event loop whenever its run ends early (a timeout, a cancellation, an output too large),
and what it prints is read only up to :data:`MAX_OUTPUT_BYTES`.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from kubernetes_asyncio.config.config_exception import ConfigException
from kubernetes_asyncio.config.exec_provider import ExecProvider
from kubernetes_asyncio.config.kube_config import ConfigNode

from olmtui.sources.input_limits import size_text

#: The most a plugin may print on stdout (an ExecCredential is a few kilobytes, with a
#: client certificate and key a few more); its stderr is kept up to this much too.
MAX_OUTPUT_BYTES = 1 << 20


class PluginTimeout(ConfigException):
    """The plugin did not answer in time (it has been killed). Not a ``TimeoutError``: the
    caller's own timeouts mean something else (a credential refresh still running)."""


async def exec_credential(exec_config: ConfigNode, timeout: float) -> Any:
    """The ``status`` of the ExecCredential the plugin prints, as kubernetes-asyncio reads
    it (the same checks of the configuration and of the answer); ``PluginTimeout`` when it
    has not ended within ``timeout`` seconds, ``ConfigException`` for any other failure."""
    provider = ExecProvider(exec_config)  # checks command, apiVersion, args and env
    info = {
        "apiVersion": provider.api_version,
        "kind": "ExecCredential",
        "spec": {"interactive": sys.stdout.isatty()},
    }
    process = await asyncio.create_subprocess_exec(
        *provider.args,
        env={**provider.env, "KUBERNETES_EXEC_INFO": json.dumps(info)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    errors = asyncio.ensure_future(_kept(process.stderr))
    try:
        async with asyncio.timeout(timeout):
            output = await _output(process.stdout)
            code = await process.wait()
            stderr = await errors
    except TimeoutError:
        raise PluginTimeout(f"the exec plugin did not answer within {timeout:g} s") from None
    finally:
        await _reap(process, errors)
    if code != 0:
        said = " ".join(stderr.decode("utf-8", "replace").split())
        raise ConfigException(f"exec: process returned {code}" + (f". {said}" if said else ""))
    return _status(output, str(provider.api_version))


async def _output(stream: asyncio.StreamReader) -> bytes:
    """All of ``stream``; ``ConfigException`` past :data:`MAX_OUTPUT_BYTES`."""
    parts: list[bytes] = []
    size = 0
    while chunk := await stream.read(65536):
        size += len(chunk)
        if size > MAX_OUTPUT_BYTES:
            raise ConfigException(
                f"exec: the plugin printed more than the {size_text(MAX_OUTPUT_BYTES)} olmtui reads"
            )
        parts.append(chunk)
    return b"".join(parts)


async def _kept(stream: asyncio.StreamReader) -> bytes:
    """The start of ``stream``, read to its end: a plugin that writes much to stderr must
    not block on a full pipe."""
    kept = b""
    while chunk := await stream.read(65536):
        if len(kept) < MAX_OUTPUT_BYTES:
            kept += chunk[: MAX_OUTPUT_BYTES - len(kept)]
    return kept


async def _reap(process: asyncio.subprocess.Process, errors: asyncio.Future[bytes]) -> None:
    """Kill the plugin if it still runs and wait for it, in the loop: its pipes and its
    transport are closed here, not by the garbage collector after the loop has ended."""
    if process.returncode is None:
        process.kill()
    await process.wait()
    if not errors.done():
        errors.cancel()
    await asyncio.gather(errors, return_exceptions=True)


def _status(output: bytes, api_version: str) -> Any:
    try:
        data = json.loads(output)
    except (ValueError, RecursionError) as exc:
        raise ConfigException(f"exec: failed to decode process output: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigException("exec: malformed response: not a JSON object")
    for key in ("apiVersion", "kind", "status"):
        if key not in data:
            raise ConfigException(f"exec: malformed response. missing key '{key}'")
    if data["apiVersion"] != api_version:
        raise ConfigException(
            f"exec: plugin api version {data['apiVersion']} does not match {api_version}"
        )
    return data["status"]
