"""No wrong-typed field escapes as a traceback (R-SRC-4): every field path, up to four
deep, of one object of every kind in a multi-kind sample is set to each wrong type in turn.

The sample (tests/data/malformed/cluster.yaml) holds every kind olmtui keeps. Three passes:

* every mutation, exhaustively, fed to a built session as a live watch would feed it (the
  object replaced in the store, then put back): the report (JSON and text), the screens'
  incremental findings, and the findings from scratch all build, and the latter two agree;
* a fixed-seed sample of mutations written to a snapshot file and run through ``olmtui check``
  in-process (JSON and text): exit 0 or 1, and the JSON output parses;
* a snapshot with one wrong field in every kind at once, opened in the dashboard (Pilot):
  every view, a row's detail and its YAML.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from conftest import press, settle
from data_paths import DATA

from olmtui.cli import main
from olmtui.model.incremental.health_index import HealthIndex
from olmtui.pipeline.build import snapshot_session
from olmtui.report import dumps, load_schema
from olmtui.store import Store, is_copied_csv

SAMPLE = DATA / "malformed" / "cluster.yaml"
#: The wrong values: an int where a map is, a map where a list is, a list where a map is,
#: null, an integer past 64 bits, a string, a boolean.
WRONG: tuple[Any, ...] = (5, {"wrong": 1}, ["wrong"], None, 10**30, "wrong", True)
DEPTH = 4
#: How many mutations the CLI pass runs (fixed seed: the same ones every run).
CLI_SAMPLE = 120

Path_ = tuple[str | int, ...]


def sample_objects() -> list[dict[str, Any]]:
    """The sample's objects, as documents hold them (no List in it): a copy of their one
    reading per worker, as the store may trim what it is given."""
    return copy.deepcopy(_read_sample())


@functools.cache
def _read_sample() -> list[dict[str, Any]]:
    with SAMPLE.open() as handle:
        return [d for d in yaml.load_all(handle, Loader=yaml.CSafeLoader) if d is not None]


def representatives(objs: list[dict[str, Any]]) -> list[int]:
    """The first object of every kind (a copied CSV counts as a kind of its own: the cache
    trims it another way)."""
    seen: dict[tuple[str, bool], int] = {}
    for at, obj in enumerate(objs):
        kind = obj["kind"]
        seen.setdefault((kind, kind == "ClusterServiceVersion" and is_copied_csv(obj)), at)
    return sorted(seen.values())


def field_paths(value: Any, prefix: Path_ = ()) -> Iterator[Path_]:
    """Every field path up to :data:`DEPTH` deep (a list by its first item)."""
    if len(prefix) >= DEPTH:
        return
    if isinstance(value, dict):
        items: list[tuple[str | int, Any]] = list(value.items())
    elif isinstance(value, list) and value:
        items = [(0, value[0])]
    else:
        return
    for key, field in items:
        yield (*prefix, key)
        yield from field_paths(field, (*prefix, key))


def mutated(obj: dict[str, Any], path: Path_, value: Any) -> dict[str, Any]:
    obj = copy.deepcopy(obj)
    target: Any = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return obj


def mutations(objs: list[dict[str, Any]]) -> list[tuple[int, Path_, Any]]:
    return [
        (at, path, value)
        for at in representatives(objs)
        for path in field_paths(objs[at])
        for value in WRONG
    ]


def test_the_sample_holds_every_kind_kept() -> None:
    from olmtui.store import KINDS

    kinds = {o["kind"] for o in sample_objects()}
    assert kinds >= set(KINDS)
    assert len(mutations(sample_objects())) > 2000


def _exercise(session: Any, index: HealthIndex) -> None:
    """What ``check --output json`` and the screens read after one change."""
    text = dumps(session.analysis.report())
    assert json.loads(text)["format"] == 1
    index.findings()
    index.approvals()


#: The exhaustive pass in this many shares, each its own case (one was 18 s alone: the
#: suite's workers now share them); every mutation is in exactly one.
SHARES = 8


@pytest.mark.parametrize("share", range(SHARES))
def test_every_wrong_typed_field_fed_live_is_read_without_a_traceback(share: int) -> None:
    session = snapshot_session([str(SAMPLE)])
    store: Store = session.store
    index = HealthIndex(store, session.model, session.catalogs, session.load_findings)
    objs = sample_objects()
    for at, path, value in mutations(objs)[share::SHARES]:
        bad = mutated(objs[at], path, value)
        try:
            store.apply("MODIFIED", bad)
            _exercise(session, index)
        except Exception as exc:  # pragma: no cover - the failure message names the case
            raise AssertionError(f"{objs[at]['kind']} {path} = {value!r}") from exc
        finally:
            store.apply("DELETED", bad)
            store.apply("MODIFIED", objs[at])
    assert not store.malformed  # every object put back as it was


def json_texts(value: Any, prefix: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """The fields holding JSON text (the properties annotation, an InstallPlan step's
    manifest, a bundle lookup's properties), with the document each holds."""
    if isinstance(value, dict):
        for key, field in value.items():
            yield from json_texts(field, (*prefix, key))
    elif isinstance(value, list) and value:
        yield from json_texts(value[0], (*prefix, 0))
    elif isinstance(value, str) and value.lstrip().startswith(("{", "[")):
        with contextlib.suppress(ValueError):
            yield prefix, json.loads(value)


def with_inline_csv(objs: list[dict[str, Any]]) -> dict[str, Any]:
    """An InstallPlan whose first step inlines a whole CSV as JSON, as older OLM writes it
    (R-IP-1)."""
    csv = next(o for o in objs if o["kind"] == "ClusterServiceVersion")
    plan = copy.deepcopy(
        next(o for o in objs if o["kind"] == "InstallPlan" and o["status"].get("plan"))
    )
    plan["status"]["plan"][0]["resource"].update(
        kind="ClusterServiceVersion", manifest=json.dumps(csv, default=str)
    )
    return plan


def test_every_wrong_typed_field_inside_json_text_is_read_without_a_traceback() -> None:
    """JSON text inside a field is never checked at the cache: its readers take only the
    types OLM writes."""
    session = snapshot_session([str(SAMPLE)])
    store: Store = session.store
    index = HealthIndex(store, session.model, session.catalogs, session.load_findings)
    objs = sample_objects()
    for obj in [*(objs[at] for at in representatives(objs)), with_inline_csv(objs)]:
        for text_path, document in json_texts(obj):
            for path in [(), *field_paths(document)]:
                for value in WRONG:
                    inner = mutated(document, path, value) if path else value
                    bad = mutated(obj, text_path, json.dumps(inner))
                    try:
                        store.apply("MODIFIED", bad)
                        _exercise(session, index)
                    except Exception as exc:  # pragma: no cover - names the case
                        raise AssertionError(f"{text_path} {path} = {value!r}") from exc
                    finally:
                        store.apply("DELETED", bad)
                        store.apply("MODIFIED", obj)


def _check(path: Path, output: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["check", str(path), "--output", output])
    return code, out.getvalue()


def _write(path: Path, objs: list[dict[str, Any]]) -> None:
    """A snapshot as JSON lines (times the YAML loader made datetimes go back to text)."""
    path.write_text("\n".join(json.dumps(o, default=str) for o in objs) + "\n")


def test_a_sample_of_mutated_snapshots_checks_with_exit_0_or_1_and_whole_json(
    tmp_path: Path,
) -> None:
    objs = sample_objects()
    chosen = random.Random(15).sample(mutations(objs), CLI_SAMPLE)
    schema = load_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    snapshot = tmp_path / "cluster.json"
    for at, path, value in chosen:
        spoiled = list(objs)
        spoiled[at] = mutated(objs[at], path, value)
        _write(snapshot, spoiled)
        case = f"{objs[at]['kind']} {path} = {value!r}"
        code, out = _check(snapshot, "json")
        assert code in (0, 1), case
        report = json.loads(out)
        validator.validate(report)  # report format 1
        for finding in report["findings"]:
            if finding["code"] == "MalformedObject":
                assert "cluster.json line " in finding["message"], case
        code, out = _check(snapshot, "text")
        assert code in (0, 1), case
        assert out


def _spoiled_everywhere(seed: int) -> list[dict[str, Any]]:
    """The sample with one wrong field in every representative object."""
    objs = sample_objects()
    rng = random.Random(seed)
    for at in representatives(objs):
        paths = [p for p in field_paths(objs[at]) if p[:2] != ("metadata", "name")]
        objs[at] = mutated(objs[at], rng.choice(paths), rng.choice(WRONG))
    return objs


async def test_the_dashboard_shows_every_view_of_a_spoiled_snapshot(tmp_path: Path) -> None:
    from olmtui.ui.app import OlmApp
    from olmtui.ui.views import VIEWS

    snapshot = tmp_path / "cluster.json"
    _write(snapshot, _spoiled_everywhere(15))
    app = OlmApp(snapshot_session([str(snapshot)], label="spoiled"))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        for view in VIEWS:
            # the view, its first row's detail where there is one, that object's YAML
            assert app.show_view(view.name)
            await settle(pilot)
            await press(pilot, "enter", "y")
            await press(pilot, "escape", "escape", "escape")
        await pilot.pause()
        assert app.screen is not None


def test_json_is_written_only_once_the_report_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A report that fails while it is built prints nothing: never half a document."""
    import olmtui.report as report_module

    def broken(report: Any, stream: io.StringIO) -> None:
        stream.write('{\n  "format": 1,')  # written in pieces: part of it is out already
        raise RuntimeError("broken while building")

    monkeypatch.setattr(report_module, "write_json", broken)
    out = io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(io.StringIO()),
        contextlib.suppress(BaseException),
    ):
        main(["check", str(SAMPLE), "--output", "json"])
    assert out.getvalue() == ""
