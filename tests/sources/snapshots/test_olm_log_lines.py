"""R-EVD-10: one OLM log line parsed: its time, level and the objects it names, in each
format OLM writes (logrus, klog, JSON), with and without the kubelet's timestamp, and lines
that are none of these."""

from __future__ import annotations

import pytest

from olmtui.sources.snapshots.olm_log_lines import LINE_LIMIT, parse_log_line

KUBELET = "2026-11-28T11:22:33.123456789Z "


@pytest.mark.parametrize(
    ("raw", "time", "level", "mentions"),
    [
        pytest.param(
            KUBELET + 'time="2026-11-28T11:22:33Z" level=error msg="sync failed" '
            "csv=etcd.v0.9.4 id=abc namespace=operators phase=Failed",
            "2026-11-28T11:22:33.123456789Z",
            "error",
            {("operators", "etcd.v0.9.4")},
            id="logrus-csv-with-namespace",
        ),
        pytest.param(
            'time="2026-11-28T11:22:34Z" level=warning msg="x" sub=etcd namespace=operators',
            "2026-11-28T11:22:34Z",
            "warning",
            {("operators", "etcd")},
            id="logrus-without-kubelet-time-uses-its-own",
        ),
        pytest.param(
            KUBELET + 'time="2026-11-28T11:22:34Z" level=info msg="syncing catalog source" '
            "catalogsource.name=redhat-operators catalogsource.namespace=openshift-marketplace",
            "2026-11-28T11:22:33.123456789Z",
            "info",
            {("openshift-marketplace", "redhat-operators")},
            id="logrus-catalogsource-dotted-keys",
        ),
        pytest.param(
            KUBELET + 'E1128 11:22:33.123456       1 controller.go:12] "reconcile failed" '
            'ClusterExtension="argocd" namespace="" name="argocd" err="boom"',
            "2026-11-28T11:22:33.123456789Z",
            "error",
            {("", "argocd")},
            id="klog-structured-cluster-scoped",
        ),
        pytest.param(
            'W1128 11:22:33.123456 1 x.go:1] sync {"update" "operators/etcd.v1"} failed',
            "",
            "warning",
            {("operators", "etcd.v1")},
            id="klog-without-kubelet-time-has-no-year-so-no-time",
        ),
        pytest.param(
            '{"level":"error","ts":"2026-11-28T11:22:35Z","msg":"Reconciler error",'
            '"Subscription":{"name":"etcd","namespace":"operators"}}',
            "2026-11-28T11:22:35Z",
            "error",
            {("operators", "etcd")},
            id="json-ts-text-nested-object",
        ),
        pytest.param(
            '{"level":"info","ts":1764329000.5,"msg":"m","name":"argocd"}',
            "2025-11-28T11:23:20.500000Z",
            "info",
            {("", "argocd")},
            id="json-ts-epoch-seconds",
        ),
        pytest.param(
            "panic: runtime error: index out of range",
            "",
            "",
            set(),
            id="plain-text-no-time-no-level",
        ),
        pytest.param("", "", "", set(), id="empty"),
        pytest.param('{"level": [1, {', "", "", set(), id="broken-json"),
        pytest.param("[" * 5000 + "{" * 5000, "", "", set(), id="deep-brackets"),
        pytest.param(
            '{"level":"error","ts":1e400,"msg":"m"}', "", "error", set(), id="json-ts-out-of-range"
        ),
        pytest.param(
            "2026-13-45T99:99:99Z not really a time",
            "2026-13-45T99:99:99Z",
            "",
            set(),
            id="kubelet-shaped-time-kept-as-text",
        ),
        pytest.param(
            'level=error msg="[red]markup[/red] \x1b[31m" csv=x',
            "",
            "error",
            {("", "x")},
            id="markup-and-escapes-are-text",
        ),
    ],
)
def test_a_line_is_parsed_into_time_level_and_the_objects_it_names(
    raw: str, time: str, level: str, mentions: set[tuple[str, str]]
) -> None:
    line = parse_log_line("olm-operator-1", "olm-operator", raw)
    assert (line.time, line.level, set(line.mentions)) == (time, level, mentions)
    assert line.pod == "olm-operator-1"
    assert line.container == "olm-operator"


def test_the_kubelet_time_is_taken_off_the_text_and_the_rest_kept_as_written() -> None:
    line = parse_log_line("p", "c", KUBELET + "I1128 x\r\n")
    assert line.text == "I1128 x"


def test_a_very_long_line_is_cut() -> None:
    line = parse_log_line("p", "c", "x" * (LINE_LIMIT * 10))
    assert len(line.text) == LINE_LIMIT


def test_an_api_group_is_no_object_a_slash_inside_a_dotted_word_is_not_read() -> None:
    line = parse_log_line("p", "c", 'msg="watching operators.coreos.com/v1alpha1"')
    assert set(line.mentions) == set()
