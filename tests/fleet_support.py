"""Helpers for the fleet tests (``olmtui check --fleet``): clusters that fail in the ways a
fleet meets (a socket that accepts and says nothing, a connection cut in the middle of a
list), a tiny parser of Prometheus' text exposition format, and the fleet schema's
validator."""

from __future__ import annotations

import contextlib
import functools
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema

from olmtui.apiserver.kubeconfig import write_kubeconfig
from olmtui.report.fleet_json import load_fleet_schema


@functools.cache
def _fleet_validator() -> Any:
    schema = load_fleet_schema()
    jsonschema.validators.validator_for(schema).check_schema(schema)
    return jsonschema.validators.validator_for(schema)(schema)


def validate_fleet(document: Any) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``document`` is a fleet report."""
    _fleet_validator().validate(document)


def validate_fleet_target(target: Any) -> None:
    """One ``targets[]`` entry (a line of ``--output jsonl``)."""
    validate_fleet({"format": 1, "targets": [target], "rollup": _EMPTY_ROLLUP})


_EMPTY_ROLLUP = {"byRule": {}, "skew": [], "blockedForNextMinor": []}


@contextlib.contextmanager
def silent_cluster(path: Path, context: str = "silent") -> Iterator[Path]:
    """A kubeconfig whose server completes TCP connections (the kernel's listen backlog) and
    never sends a byte."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        port = listener.getsockname()[1]
        yield write_kubeconfig(path, f"http://127.0.0.1:{port}", context=context)


class CuttingProxy:
    """A TCP proxy in front of a loopback API server that drops a connection as soon as it
    carries a list of ``plural`` (a list, not a watch): the request is never answered."""

    def __init__(self, upstream_port: int, plural: str) -> None:
        self.upstream_port = upstream_port
        self.marker = re.compile(rb"GET /[^ ?]*/" + plural.encode() + rb"(\?(?![^ ]*watch=)| )")
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.cuts = 0
        threading.Thread(target=self._accept, daemon=True, name="cutting-proxy").start()

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port))

        def answers() -> None:
            with contextlib.suppress(OSError):
                while data := upstream.recv(65536):
                    client.sendall(data)

        threading.Thread(target=answers, daemon=True).start()
        with contextlib.suppress(OSError):
            while data := client.recv(65536):
                if self.marker.search(data):
                    self.cuts += 1
                    break
                upstream.sendall(data)
        for end in (client, upstream):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()


#: ``name{labels} value`` of the text exposition format.
_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$")
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)')


def parse_exposition(text: str) -> dict[str, Any]:
    """``{"help": {metric: text}, "type": {metric: type}, "samples": [(metric, labels,
    value)]}``; AssertionError on any line the format does not allow."""
    parsed: dict[str, Any] = {"help": {}, "type": {}, "samples": []}
    assert text.endswith("\n")
    for line in text.splitlines():
        if line.startswith("# HELP "):
            metric, _, said = line[7:].partition(" ")
            parsed["help"][metric] = said
        elif line.startswith("# TYPE "):
            metric, _, kind = line[7:].partition(" ")
            assert kind in ("counter", "gauge", "histogram", "summary", "untyped"), line
            parsed["type"][metric] = kind
        else:
            found = _SAMPLE.match(line)
            assert found, line
            labels: dict[str, str] = {}
            rest = found.group(3) or ""
            while rest:
                label = _LABEL.match(rest)
                assert label, line
                value = label.group(2)
                value = re.sub(r"\\(.)", lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), value)
                labels[label.group(1)] = value
                rest = rest[label.end() :]
            assert found.group(1) in parsed["type"], f"sample before its TYPE: {line}"
            parsed["samples"].append((found.group(1), labels, float(found.group(4))))
    return parsed
