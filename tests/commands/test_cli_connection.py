"""Connection flags given before the sub-command apply or are refused, never dropped.

``olmtui --context prod check --live`` used to check the current context: the sub-command's
defaults overwrote what the top level had parsed. The kubeconfig below knows only ``dev``, so
an error naming ``prod`` proves that ``prod`` reached the live reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from olmtui.cli import build_parser, main
from olmtui.errors import UsageError
from olmtui.sources.cluster.live_args import merge_leading_connection, options_from_args
from olmtui.sources.cluster.live_options import LiveOptions

KUBECONFIG = """\
apiVersion: v1
kind: Config
current-context: dev
clusters:
- {name: c, cluster: {server: "https://127.0.0.1:1"}}
users:
- {name: u, user: {token: t}}
contexts:
- {name: dev, context: {cluster: c, user: u}}
"""


@pytest.fixture
def kubeconfig(tmp_path: Path) -> str:
    path = tmp_path / "kubeconfig"
    path.write_text(KUBECONFIG)
    return str(path)


def options(*argv: str) -> LiveOptions:
    args = build_parser().parse_args(argv)
    merge_leading_connection(args)
    return options_from_args(args)


@pytest.mark.parametrize(
    "argv",
    [
        ("--context", "prod", "--kubeconfig", "K", "--namespace", "a", "check", "--live"),
        ("check", "--live", "--context", "prod", "--kubeconfig", "K", "--namespace", "a"),
        ("--context", "prod", "check", "--live", "--kubeconfig", "K", "--namespace", "a"),
        ("--context", "prod", "--namespace", "a", "check", "--live", "--context", "prod"),
    ],
    ids=["before", "after", "split", "same-value-twice"],
)
def test_flags_apply_wherever_they_are_given(argv: tuple[str, ...]) -> None:
    got = options(*argv)
    assert got.context == "prod"
    assert got.namespaces == ["a"]
    if "--kubeconfig" in argv:
        assert got.kubeconfig == "K"


def test_namespaces_given_in_both_places_add_up() -> None:
    got = options("--namespace", "a", "--namespace", "b", "check", "--live", "--namespace", "c")
    assert got.namespaces == ["a", "b", "c"]


def test_flags_before_no_sub_command_reach_the_dashboard() -> None:
    assert options("--context", "prod", "--kubeconfig", "K") == LiveOptions(
        kubeconfig="K", context="prod", namespaces=[]
    )


def test_nothing_given_means_the_defaults() -> None:
    assert options("snapshot", "-o", "x") == LiveOptions(
        kubeconfig=None, context=None, namespaces=[]
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("--context", "prod", "check", "--live", "--context", "dev"),
            "--context given twice: prod before `check` and dev after it; give one",
        ),
        (
            ("--kubeconfig", "A", "snapshot", "-o", "x", "--kubeconfig", "B"),
            "--kubeconfig given twice: A before `snapshot` and B after it; give one",
        ),
        (
            ("--context", "prod", "replay", "x.yaml"),
            "--context does not apply to `olmtui replay` (it reads no cluster)",
        ),
        (
            ("--namespace", "a", "graph", "etcd"),
            "--namespace does not apply to `olmtui graph` (it reads no cluster)",
        ),
        (
            ("--kubeconfig", "K", "demo"),
            "--kubeconfig does not apply to `olmtui demo` (it reads no cluster)",
        ),
    ],
)
def test_conflicting_or_useless_flags_are_refused(argv: tuple[str, ...], message: str) -> None:
    with pytest.raises(UsageError) as raised:
        options(*argv)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    "argv",
    [
        ("--context", "prod", "check", "--live"),
        ("--context", "prod", "snapshot", "-o", "out"),
        ("--context", "prod"),
    ],
    ids=["check", "snapshot", "dashboard"],
)
def test_a_leading_context_reaches_the_live_reader(
    argv: tuple[str, ...],
    kubeconfig: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["--kubeconfig", kubeconfig, *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"olmtui: context 'prod' not found in {kubeconfig} (known: dev)\n"
    assert not (tmp_path / "out").exists()


def test_a_leading_flag_given_to_check_without_live_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text("kind: OLMConfig\napiVersion: operators.coreos.com/v1\n")
    assert main(["--context", "prod", "check", str(snapshot)]) == 2
    assert capsys.readouterr().err == "olmtui: --context only applies with --live\n"
