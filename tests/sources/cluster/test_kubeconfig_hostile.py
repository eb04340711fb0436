"""A hostile kubeconfig, or a connection that never answers, cannot hang olmtui, exhaust its
memory or crash it: each is one line on stderr and exit 2, within its timeout.

The inputs are made by the tests: FIFOs, ``/dev/zero``, a kubeconfig nested 100,000 levels
deep, a token with a line break, a server URL with a password, a proxy that never answers
``CONNECT``, exec plugins that never end or print without end, a client key with a
passphrase. Every run is a real ``olmtui check --live`` in a subprocess with a timeout: a
hang fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from cli_in_process import run_cli
from data_paths import ROOT

from olmtui.sources.cluster.kubeconfig_files import KubeconfigRefused, refuse_encrypted_key
from olmtui.sources.cluster.live_config import load_cluster_config

EXEC_API = "client.authentication.k8s.io/v1beta1"


def olmtui(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    if env is None or "KUBECONFIG" not in env:
        environment.pop("KUBECONFIG", None)
    return subprocess.run(
        [sys.executable, "-m", "olmtui", *argv],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def one_line_exit_2(result: subprocess.CompletedProcess[str], *words: str) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def kubeconfig(
    path: Path, user: dict[str, Any], server: str = "http://127.0.0.1:9", **cluster: Any
) -> str:
    path.write_text(
        yaml.safe_dump(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "c",
                "clusters": [{"name": "c", "cluster": {"server": server, **cluster}}],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
                "users": [{"name": "u", "user": user}],
            }
        )
    )
    return str(path)


def check_live(config: str, *more: str) -> subprocess.CompletedProcess[str]:
    return olmtui("check", "--live", "--kubeconfig", config, "--request-timeout", "2s", *more)


def refused_in_process(config: str) -> subprocess.CompletedProcess[str]:
    """:func:`check_live` run in-process (``cli_in_process``), for a kubeconfig refused
    before anything is read from a file or the network could block: the refusal's line and
    status are the point, not the child (1.3 s of CPU to start)."""
    argv = ("check", "--live", "--kubeconfig", config, "--request-timeout", "2s")
    return run_cli(*argv, drop=("KUBECONFIG",))


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


# -- files that would block or never end --------------------------------------------------
@pytest.mark.parametrize("key", ["tokenFile", "client-certificate", "client-key"])
@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_user_file_that_is_no_regular_file_is_refused(
    tmp_path: Path, fifo: Path, key: str, special: str
) -> None:
    """``tokenFile: /dev/zero`` was read until the kernel killed olmtui; a FIFO hung it."""
    target = str(fifo) if special == "fifo" else special
    user = {key: target}
    if key == "client-key":
        user["client-certificate-data"] = "Zm9v"
    config = kubeconfig(tmp_path / "kc", user, "https://127.0.0.1:9")
    what = "a FIFO" if special == "fifo" else "a character device"
    one_line_exit_2(check_live(config), target, what, "not read")


def test_a_certificate_authority_that_is_a_fifo_is_refused(tmp_path: Path, fifo: Path) -> None:
    config = kubeconfig(
        tmp_path / "kc",
        {"token": "t"},
        "https://127.0.0.1:9",
        **{"certificate-authority": str(fifo)},
    )
    one_line_exit_2(check_live(config), "certificate authority", str(fifo), "a FIFO")


def test_a_relative_token_file_is_read_next_to_its_kubeconfig(tmp_path: Path) -> None:
    """As kubectl reads it, trimmed; and read through the bounded reader, not the library's."""
    (tmp_path / "token").write_text("  file-token\n")
    config = kubeconfig(tmp_path / "kc", {"tokenFile": "token"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cwd = os.getcwd()
    os.chdir(elsewhere)
    try:
        import asyncio

        cluster = asyncio.run(load_cluster_config(config, None))
    finally:
        os.chdir(cwd)
    assert cluster.configuration.api_key["BearerToken"] == "Bearer file-token"


@pytest.mark.parametrize("how", ["--kubeconfig", "KUBECONFIG"])
@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_kubeconfig_that_is_no_regular_file_says_what_it_is(
    fifo: Path, how: str, special: str
) -> None:
    """It said "not found" (and a FIFO in ``KUBECONFIG`` would be opened and block)."""
    target = str(fifo) if special == "fifo" else special
    if how == "--kubeconfig":
        result = olmtui("check", "--live", "--kubeconfig", target)
    else:
        result = olmtui("check", "--live", env={"KUBECONFIG": target})
    what = "a FIFO" if special == "fifo" else "a character device"
    line = one_line_exit_2(result, target, what, "not a regular file")
    assert "not found" not in line


@pytest.mark.parametrize(
    "text",
    [
        "a: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "".join(" " * i + "- \n" for i in range(3000)),
    ],
    ids=["flow", "block"],
)
def test_a_kubeconfig_nested_too_deep_is_one_line(tmp_path: Path, text: str) -> None:
    config = tmp_path / "kc"
    config.write_text(text)
    one_line_exit_2(refused_in_process(str(config)), str(config), "nested deeper than 1,000 levels")


def test_a_kubeconfig_alias_bomb_is_one_line(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    config = tmp_path / "kc"
    config.write_text("\n".join(lines) + "\n")
    one_line_exit_2(refused_in_process(str(config)), "alias bomb")


@pytest.mark.parametrize("key", ["tokenFile", "kubeconfig"])
def test_a_file_claiming_gigabytes_is_refused_unread(tmp_path: Path, key: str) -> None:
    """A sparse file claims any size; it is refused by its size, never read."""
    sparse = tmp_path / "sparse"
    with sparse.open("wb") as stream:
        stream.truncate(4 << 30)
    config = str(sparse) if key == "kubeconfig" else kubeconfig(tmp_path / "kc", {key: str(sparse)})
    one_line_exit_2(check_live(config), str(sparse), "4.0 GiB, larger than")


@pytest.mark.parametrize("key", ["server", "proxy-url", "tls-server-name"])
def test_a_cluster_field_that_is_no_string_is_one_line(tmp_path: Path, key: str) -> None:
    """``proxy-url: 5`` crashed (exit 3) with a TypeError inside aiohttp."""
    cluster = {"server": "https://127.0.0.1:9", key: 5}
    config = kubeconfig(tmp_path / "kc", {"token": "t"}, **cluster)
    one_line_exit_2(refused_in_process(config), key, "not a string")


# -- credentials no request may carry -----------------------------------------------------
@pytest.mark.parametrize("token", ["abc\r\nX-Injected: 1", "abc\ndef", "abc\x00def"])
def test_a_token_no_header_may_carry_is_one_line(tmp_path: Path, token: str) -> None:
    config = kubeconfig(tmp_path / "kc", {"token": token})
    line = one_line_exit_2(refused_in_process(config), "token", "line break")
    assert "abc" not in line and "Injected" not in line


def test_a_server_url_with_a_password_is_one_line_without_it(tmp_path: Path) -> None:
    config = kubeconfig(tmp_path / "kc", {"token": "t"}, "http://bob:s3cret@127.0.0.1:9")
    result = refused_in_process(config)
    one_line_exit_2(result, "user name or password", "http://127.0.0.1:9")
    assert "s3cret" not in result.stderr + result.stdout


def openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def test_a_malformed_user_is_reported_without_its_secrets(tmp_path: Path) -> None:
    """kubernetes-asyncio named each entry by its whole content in its messages: a user
    whose token sits one level too high was printed, token and all."""
    config = tmp_path / "kc"
    doc = yaml.safe_load(kubeconfig(config, {"token": "t"}) and config.read_text())
    doc["users"] = [{"name": "u", "token": "hunter2-secret"}]
    config.write_text(yaml.safe_dump(doc))
    result = refused_in_process(str(config))
    one_line_exit_2(result, "context 'c'")
    assert "hunter2" not in result.stderr


@pytest.fixture(scope="module")
def encrypted_key(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A certificate with its key protected by a passphrase (PKCS #8), and the same key in
    OpenSSL's traditional encrypted form."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    where = tmp_path_factory.mktemp("encrypted")
    key, cert, old = where / "key.pem", where / "cert.pem", where / "old.pem"
    request = ["req", "-x509", "-newkey", "rsa:2048", "-passout", "pass:secret", "-days", "1"]
    openssl(*request, "-subj", "/CN=olmtui-test", "-keyout", str(key), "-out", str(cert))
    convert = ["rsa", "-in", str(key), "-passin", "pass:secret", "-aes128", "-passout", "pass:x"]
    openssl(*convert, "-traditional", "-out", str(old))
    return {"key": key, "cert": cert, "old": old}


def test_a_client_key_with_a_passphrase_is_refused_before_openssl_prompts(
    tmp_path: Path, encrypted_key: dict[str, Path]
) -> None:
    """OpenSSL asks for the passphrase on the terminal (a CI job hangs, the dashboard is
    garbled): refused with one line instead, the key's path named."""
    user = {
        "client-certificate": str(encrypted_key["cert"]),
        "client-key": str(encrypted_key["key"]),
    }
    config = kubeconfig(
        tmp_path / "kc", user, "https://127.0.0.1:9", **{"insecure-skip-tls-verify": True}
    )
    one_line_exit_2(check_live(config), "passphrase", str(encrypted_key["key"]))


def test_a_client_key_with_a_passphrase_from_an_exec_plugin_is_refused(
    tmp_path: Path, encrypted_key: dict[str, Path]
) -> None:
    status = {
        "clientCertificateData": encrypted_key["cert"].read_text(),
        "clientKeyData": encrypted_key["key"].read_text(),
    }
    answer = {"apiVersion": EXEC_API, "kind": "ExecCredential", "status": status}
    plugin = tmp_path / "plugin.py"
    plugin.write_text(f"print({json.dumps(answer)!r})\n")
    user = {"exec": {"apiVersion": EXEC_API, "command": sys.executable, "args": [str(plugin)]}}
    cluster = {"insecure-skip-tls-verify": True}
    config = kubeconfig(tmp_path / "kc", user, "https://127.0.0.1:9", **cluster)
    one_line_exit_2(check_live(config), "passphrase", "exec plugin")


def test_both_forms_of_an_encrypted_pem_key_are_seen(encrypted_key: dict[str, Path]) -> None:
    assert b"BEGIN ENCRYPTED PRIVATE KEY" in encrypted_key["key"].read_bytes()
    assert b"Proc-Type: 4,ENCRYPTED" in encrypted_key["old"].read_bytes()
    for name in ("key", "old"):
        with pytest.raises(KubeconfigRefused, match="passphrase"):
            refuse_encrypted_key(encrypted_key[name].read_bytes(), name)
    refuse_encrypted_key(b"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n", "p")


# -- connections and plugins that never answer --------------------------------------------
@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port whose listener never accepts: the kernel completes each connection,
    takes what the client sends, and nothing ever answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield listener.getsockname()[1]


def test_a_proxy_that_never_answers_connect_is_bounded_by_the_request_timeout(
    tmp_path: Path, silent_port: int
) -> None:
    """An https server behind a ``proxy-url`` that never answers ``CONNECT`` hung
    ``check --live`` for good: neither socket timeout covers the proxy's answer."""
    config = kubeconfig(
        tmp_path / "kc",
        {"token": "t"},
        "https://api.cluster.example:6443",
        **{"proxy-url": f"http://127.0.0.1:{silent_port}"},
    )
    one_line_exit_2(check_live(config), "did not answer within 2 s", "--request-timeout")


@pytest.mark.parametrize("command", ["check", "snapshot", "explain"])
def test_a_server_that_never_answers_is_bounded_by_the_request_timeout(
    tmp_path: Path, silent_port: int, command: str
) -> None:
    """``--request-timeout`` bounds the whole read, connecting (discovery) included."""
    config = kubeconfig(tmp_path / "kc", {"token": "t"}, f"http://127.0.0.1:{silent_port}")
    argv = {
        "check": ["check", "--live"],
        "snapshot": ["snapshot", "-o", str(tmp_path / "out.tar.gz")],
        "explain": ["explain", "--live", "operators"],
    }[command]
    result = olmtui(*argv, "--kubeconfig", config, "--request-timeout", "2s")
    one_line_exit_2(result, "did not answer within 2 s")
    assert not (tmp_path / "out.tar.gz").exists()


HANGING_PLUGIN = """
import os, pathlib, sys, time
pathlib.Path(sys.argv[1]).write_text(str(os.getpid()))
time.sleep(60)
"""


def test_an_exec_plugin_cut_off_is_killed_and_prints_nothing_after_the_line(
    tmp_path: Path,
) -> None:
    """The plugin cut at the timeout was left running (an orphan), and its pipes were
    closed by the garbage collector after the event loop: a traceback after the exit line."""
    plugin = tmp_path / "plugin.py"
    plugin.write_text(HANGING_PLUGIN)
    pid_file = tmp_path / "pid"
    user = {
        "exec": {
            "apiVersion": EXEC_API,
            "command": sys.executable,
            "args": [str(plugin), str(pid_file)],
        }
    }
    config = kubeconfig(tmp_path / "kc", user)
    result = check_live(config)
    pid = int(pid_file.read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        alive = False
    else:
        alive = True
        os.kill(pid, signal.SIGKILL)
    one_line_exit_2(result, "exec plugin", "within 2 s")
    assert not alive, "the exec plugin was left running"


def test_an_exec_plugin_printing_without_end_is_cut_off(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin.py"
    plugin.write_text("import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n")
    user = {"exec": {"apiVersion": EXEC_API, "command": sys.executable, "args": [str(plugin)]}}
    config = kubeconfig(tmp_path / "kc", user)
    one_line_exit_2(check_live(config), "exec", "printed more than")
