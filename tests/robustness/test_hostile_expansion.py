"""Small inputs that hung olmtui or expanded to gigabytes: each
ends, within the harness's timeout and 2 GiB address-space cap, in a finding naming the file
(and member or line), and never in exit 3.

The inputs are made at test time (``tests/data/hostile/README.md``); the runs are real
``olmtui`` subprocesses (``test_hostile_input.olmtui``).
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import tarfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from capped_run import GOOD, MIB, olmtui
from hostile_text import namespaces_yaml

from olmtui import cli
from olmtui.sources.snapshots import parallel_load
from olmtui.sources.snapshots.snapshot import load_snapshot
from olmtui.sources.snapshots.snapshot_documents import parse_documents
from olmtui.sources.snapshots.snapshot_files import path_content
from olmtui.sources.snapshots.snapshot_skips import MAX_REASONS, FileSkips
from olmtui.store import Store

DENIED = "Permission denied"
#: The size a pax header declares in the archive that once hung olmtui: 10^20 bytes.
HUGE_SIZE = 10**20


def _member(name: str, data: bytes, pax_size: int | None = None) -> bytes:
    """One member as ``tarfile`` writes it in pax format, its size replaced by ``pax_size``
    in the pax header when given (the data then stays as it is)."""
    info = tarfile.TarInfo(name)
    info.size = len(data)
    if pax_size is not None:
        info.pax_headers = {"size": str(pax_size)}
    padding = b"\0" * (-len(data) % tarfile.BLOCKSIZE)
    return info.tobuf(format=tarfile.PAX_FORMAT) + data + padding


def _hanging_tar() -> bytes:
    """The 3.5 KB archive that once hung olmtui: a good member, one whose pax header
    declares 10^20 bytes, and a good member after it that cannot be found."""
    good = GOOD.read_bytes()
    return (
        _member("good.yaml", good)
        + _member("huge.yaml", b"", pax_size=HUGE_SIZE)
        + _member("after.yaml", good)
    )


def test_a_pax_size_of_10_to_the_20_is_refused_at_once(tmp_path: Path) -> None:
    """``tarfile`` skipped the member one block at a time after the data ended: for ever."""
    path = tmp_path / "huge.tar"
    path.write_bytes(_hanging_tar())
    assert path.stat().st_size == 3584
    run = olmtui("check", path)
    assert run.status == 1  # what follows the member is lost: an error, as for a cut archive
    stop, member = sorted(run.findings(), key=lambda f: f["severity"])  # error, warning
    assert (member["severity"], member["name"]) == ("warning", f"{path}:huge.yaml")
    assert "GiB, larger than the 256.0 MiB olmtui reads of one file" in member["message"]
    assert (stop["severity"], stop["name"]) == ("error", str(path))
    assert (
        "member huge.yaml declares 100,000,000,000,000,000,000 bytes, more than the 3,584 "
        "bytes of the whole archive: it is cut short or damaged" in stop["message"]
    )
    assert run.report["source"]["objects"] == 2  # good.yaml, read before it


def test_the_same_member_in_a_compressed_archive(tmp_path: Path) -> None:
    path = tmp_path / "huge.tar.gz"
    path.write_bytes(gzip.compress(_hanging_tar()))
    run = olmtui("check", path)
    assert run.status == 1
    stop, member = sorted(run.findings(), key=lambda f: f["severity"])
    assert member["name"] == f"{path}:huge.yaml"
    assert stop["name"] == str(path)
    assert "reading stopped at member huge.yaml, whose header declares" in stop["message"]
    assert run.report["source"]["objects"] == 2


def test_a_member_that_fits_the_limit_but_not_the_data_ends_the_skip(tmp_path: Path) -> None:
    """A 200 MiB member (under every cap) in a 3 KB gzip: skipped until the data ends."""
    good = GOOD.read_bytes()
    path = tmp_path / "cut.tar.gz"
    path.write_bytes(gzip.compress(_member("good.yaml", good) + _member("x.log", b"", 200 * MIB)))
    run = olmtui("check", path)
    assert run.status == 1
    (finding,) = run.findings()
    assert finding["name"] == str(path)
    assert "the data ends inside member x.log" in finding["message"]
    assert run.report["source"]["objects"] == 2


def test_explain_ends_too(tmp_path: Path) -> None:
    """``explain`` (and ``replay``) load through the same reader: it ends, on its own terms."""
    path = tmp_path / "huge.tar"
    path.write_bytes(_hanging_tar())
    run = olmtui("explain", "team-a", path, "--output", "json")
    assert run.status == 2
    assert run.err.endswith("namespace team-a holds no Subscription: nothing to resolve\n")


# --- item 9: an unreadable subdirectory -------------------------------------------------------


def _unlistable(monkeypatch: pytest.MonkeyPatch, *paths: Path) -> None:
    """``os.scandir`` fails on ``paths`` as on a directory of mode 000 (``chmod`` does not
    stop root, and the tests may run as root)."""
    real = os.scandir
    refused = {str(p) for p in paths}

    def scandir(path: Any = ".") -> Any:
        if str(path) in refused:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def _must_gather(root: Path) -> Path:
    """A must-gather with a good namespace, an unread namespace and an unread log folder."""
    dump = root / "mg"
    for folder in ("namespaces/team-a", "namespaces/team-b", "host_service_logs/masters"):
        (dump / folder).mkdir(parents=True)
    (dump / "namespaces/team-a/objects.yaml").write_bytes(GOOD.read_bytes())
    (dump / "namespaces/team-b/objects.yaml").write_bytes(GOOD.read_bytes())
    return dump


def test_an_unreadable_subdirectory_is_reported_as_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = _must_gather(tmp_path)
    _unlistable(monkeypatch, dump / "namespaces/team-b", dump / "host_service_logs/masters")
    status = cli.main(["check", str(dump), "--output", "json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0  # as for an unreadable file: a warning
    (finding,) = [f for f in report["findings"] if f["code"] == "UnreadableDocument"]
    # the log folder is one olmtui would not read anyway: no word about it
    assert (finding["severity"], finding["name"]) == ("warning", str(dump / "namespaces/team-b"))
    assert finding["message"] == (
        "The directory could not be read (Permission denied): the files in it are missing "
        "from the snapshot, so findings may be missing or wrong."
    )
    assert report["source"]["objects"] == 2


def test_an_unreadable_snapshot_directory_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _unlistable(monkeypatch, tmp_path)
    assert cli.main(["check", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"olmtui: {tmp_path}: no Kubernetes objects found ({tmp_path}: {DENIED})\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a directory of mode 000")
def test_a_mode_000_subdirectory_for_real(tmp_path: Path) -> None:
    dump = _must_gather(tmp_path)
    unread = dump / "namespaces/team-b"
    unread.chmod(0)
    try:
        run = olmtui("check", dump)
    finally:
        unread.chmod(0o755)
    (finding,) = run.findings()
    assert finding["name"] == str(unread)
    assert "The directory could not be read (Permission denied)" in finding["message"]


# --- item 7: small inputs that expand -----------------------------------------------------------


def test_a_million_empty_objects_are_one_finding(tmp_path: Path) -> None:
    """7 MB of ``{}`` documents: a million findings took 2.4 GB (past the 2 GiB cap). A fifth
    of them tells the same: each skipped object was its own finding, and the findings are
    what the report shows (what the loader holds of a long stream is bounded in
    test_hostile_memory)."""
    count = 200_000
    path = tmp_path / "empty.yaml"
    path.write_bytes(GOOD.read_bytes() + b"---\n{}\n" * count + b"--- 7\n")
    run = olmtui("check", path)
    assert run.status == 0
    invalid = run.findings("InvalidObject")
    assert [f["message"] for f in invalid] == [
        f"{count:,} objects of this file were skipped for this reason, the first in the "
        "document at line 22: it has no apiVersion.",
        f"The object in the document at line {2 * count + 22} was skipped: the document is a "
        "scalar (int), not an object.",
    ]
    assert run.report["source"]["skipped"] == count + 1
    assert run.report["source"]["objects"] == 2


def test_skips_are_grouped_by_reason_whatever_their_line_or_item() -> None:
    skips = FileSkips("f.yaml")
    for index in range(3):
        skips.add("InvalidObject", 4, f"item {index} of this List: it has no apiVersion")
        skips.add("UnreadableDocument", 10 + index, f"line {10 + index}, column 2: bad")
    for index in range(MAX_REASONS + 5):
        skips.add("UnreadableDocument", 100 + index, f"line {100 + index}: reason {index}")
    found = skips.findings()
    assert len(found) == MAX_REASONS + 1
    assert found[0].message == (
        "3 objects of this file were skipped for this reason, the first in the document at "
        "line 4: item 0 of this List: it has no apiVersion."
    )
    assert found[1].message.startswith(
        "3 documents of this file do not parse for this reason, the first starting at line 10 "
        "(line 10, column 2: bad)"
    )
    assert found[2].message.startswith("The document starting at line 100 does not parse")
    assert found[-1].message == (
        "7 more documents or objects of this file were skipped for other reasons, the first "
        "at line 118 (line 118: reason 18)."
    )
    assert {f.name for f in found} == {"f.yaml"}


def _aliased_csv(copied: bool) -> bytes:
    """1.1 MB: a CSV whose spec aliases one 1 MiB string 3,000 times, 3,000 nodes but 3 GiB
    of text (``y`` on it died with ``MemoryError``); ``copied``: a copy, for the fast path."""
    label = "  labels:\n    olm.copiedFrom: team-a\n" if copied else ""
    return (
        "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\n"
        f"metadata:\n  name: bomb\n  namespace: team-b\n{label}  annotations:\n"
        f"    a: &s {'x' * MIB}\nspec:\n  x: [{', '.join(['*s'] * 3000)}]\nstatus:\n"
        "  phase: Succeeded\n"
    ).encode()


def test_aliases_are_bounded_by_text_as_well_as_nodes(tmp_path: Path) -> None:
    path = tmp_path / "alias.yaml"
    path.write_bytes(GOOD.read_bytes() + b"---\n" + _aliased_csv(copied=False))
    assert path.stat().st_size < 1_100_000
    run = olmtui("check", path)
    assert run.status == 0
    (finding,) = run.findings()
    assert finding["name"] == str(path)
    assert finding["message"] == (
        "The document starting at line 22 does not parse (line 22: its aliases expand it to "
        "more than 16.0 MiB of text beyond its own 1.0 MiB (an alias bomb)); it was skipped "
        "and the rest of the file was read."
    )
    assert run.report["source"]["objects"] == 2


def test_the_fast_path_refuses_the_aliased_copy_as_the_full_parse_does() -> None:
    data = _aliased_csv(copied=True)
    fast, full = (list(parse_documents(data, json_format=False, fast=f)) for f in (True, False))
    assert fast == full
    assert [d.problem for d in full] == [
        "line 1: its aliases expand it to more than 16.0 MiB of text beyond its own 1.0 MiB "
        "(an alias bomb)"
    ]


def test_aliases_of_a_few_small_strings_still_load() -> None:
    data = b"a: &x " + b"y" * 1000 + b"\nb: [" + b", ".join([b"*x"] * 10_000) + b"]\n"
    (document,) = parse_documents(data, json_format=False)
    assert document.problem is None  # 10 MB of text: under the bound
    assert len(document.value["b"]) == 10_000


def test_a_large_file_is_parsed_as_it_is_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 64 MB file of a million Namespaces held 1.6 GiB: all its documents as one list (and
    a worker's pickle of them) beside the cache. A file over ``STREAMED_FILE_BYTES`` is
    parsed by the loader one document at a time, pool or not, in the same order."""
    (tmp_path / "a.yaml").write_bytes(GOOD.read_bytes())
    (tmp_path / "b.yaml").write_bytes(namespaces_yaml(50))
    (tmp_path / "c.yaml").write_bytes(GOOD.read_bytes().replace(b"team-a", b"team-c"))
    listed = list(path_content(tmp_path, "snap").files)
    expected = [parallel_load.parse_file(source, True) for source in listed]
    monkeypatch.setattr(parallel_load, "STREAMED_FILE_BYTES", 1000)
    monkeypatch.setattr(parallel_load, "POOL_THRESHOLD", 0)
    for workers in (1, 2):
        parsed = list(parallel_load.parsed_files(iter(listed), workers=workers))
        assert [isinstance(documents, list) for _, documents in parsed] == [True, False, True]
        assert [(source, list(docs)) for source, docs in parsed] == expected


def test_the_cache_shares_the_keys_and_kinds_of_its_objects() -> None:
    """Each parsed object brings its own ``"apiVersion"``, ``"metadata"``, ``"name"``...:
    the cache keeps one of each (a third of what a million Namespaces held)."""
    store = Store()
    store.apply_many(yaml.safe_load_all(namespaces_yaml(2).decode()))
    first, second = store.list("Namespace")
    assert first is not second
    for one, other in ((first, second), (first["metadata"], second["metadata"])):
        assert all(a is b for a, b in zip(one, other, strict=True))
    assert first["kind"] is second["kind"] and first["apiVersion"] is second["apiVersion"]


def test_inferred_namespaces_are_named_up_to_fifty(tmp_path: Path) -> None:
    path = tmp_path / "groups.yaml"
    group = (
        "---\napiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata:\n  name: og\n"
        "  namespace: ns-{0:03d}\n"
    )
    path.write_text("".join(group.format(index) for index in range(60)))
    result = load_snapshot([path], Store())
    assert len(result.inferred_namespaces) == 60
    (finding,) = [f for f in result.findings if f.code == "NamespacesInferred"]
    assert finding.message.startswith("60 namespace(s) hold objects")
    assert "ns-048, ns-049 and 10 more. They are taken to exist" in finding.message
    assert len(finding.related) == 60
