"""R-EVD-10: the cache's log lines, found by the object they name: namespace and name, a
name without a namespace, a cluster-scoped object, newest kept, in time order."""

from __future__ import annotations

from olmtui.store import LogFileRead, LogLine, Store


def _line(time: str, text: str, *mentions: tuple[str, str]) -> LogLine:
    return LogLine("olm-operator-1", "olm-operator", time, "info", text, frozenset(mentions))


def _store(*lines: LogLine) -> Store:
    store = Store()
    store.logs.add(lines, LogFileRead("olm-operator-1/olm-operator current.log", len(lines)))
    return store


def test_a_line_names_the_object_in_its_namespace_not_one_of_that_name_elsewhere() -> None:
    store = _store(_line("t1", "ours", ("ns-a", "etcd")), _line("t2", "theirs", ("ns-b", "etcd")))
    assert [x.text for x in store.logs.naming("ns-a", "etcd", 10)] == ["ours"]


def test_a_line_that_says_no_namespace_may_be_about_any_object_of_that_name() -> None:
    store = _store(_line("t1", "any", ("", "etcd")))
    assert [x.text for x in store.logs.naming("ns-a", "etcd", 10)] == ["any"]
    assert [x.text for x in store.logs.naming("", "etcd", 10)] == ["any"]


def test_a_cluster_scoped_object_is_not_named_by_a_namespaced_mention() -> None:
    store = _store(_line("t1", "namespaced", ("ns-a", "argocd")))
    assert store.logs.naming("", "argocd", 10) == []


def test_the_newest_lines_are_kept_in_time_order_and_an_untimed_line_stays_after_its_own() -> None:
    store = _store(
        _line("2026-11-28T11:00:03Z", "third", ("n", "x")),
        _line("2026-11-28T11:00:01Z", "first", ("n", "x")),
        _line("", "continues first", ("n", "x")),
        _line("2026-11-28T11:00:02Z", "second", ("n", "x")),
    )
    named = store.logs.naming("n", "x", 10)
    assert [x.text for x in named] == ["first", "continues first", "second", "third"]
    assert [x.text for x in store.logs.naming("n", "x", 2)] == ["second", "third"]
    assert store.logs.naming("n", "x", 0) == []


def test_what_was_cut_is_said_per_file_and_a_copy_shares_the_lines() -> None:
    store = Store()
    store.logs.add((), LogFileRead("p/c current.log", 0, "the first 10 bytes not read"))
    store.logs.add((), LogFileRead("p/c previous.log", 0))
    assert store.logs.cut() == ["p/c current.log: the first 10 bytes not read"]
    assert store.copy().logs is store.logs
