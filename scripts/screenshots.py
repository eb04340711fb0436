"""Take an SVG of each main screen for the README: ``python scripts/screenshots.py``.

The screens show ``olmtui demo``'s cluster (real operators on a loopback API server) as it
stands once the watcher has listed it, before the script changes anything; ``--sample``
uses a replay of the packaged sample cluster instead. The demo's last shot is a
ClusterExtension's detail against its next release (``olmtui demo --next-catalog``). The
Resolution view is shot on a
replay of one of the resolution cases (``tests/data/resolution/orphaned-csv-blocks-package``,
a snapshot plus its catalog content), where OLM's next resolution fails. The Fleet view is
shot over three snapshots (the sample, that case and a real must-gather). SVGs go to
``screenshots/`` as they are (no conversion: the README shows SVGs).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from importlib.resources import files
from pathlib import Path

from textual.pilot import Pilot

from olmtui.pipeline.session import Session
from olmtui.ui.app import OlmApp

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "screenshots"
RESOLUTION_CASE = ROOT / "tests/data/resolution/orphaned-csv-blocks-package"
FLEET_MUST_GATHER = ROOT / "tests/data/must-gather/must-gather-clean/must-gather-azure"
SIZE = (140, 42)
#: The demo script waits this long before its first change: long enough for every shot.
QUIET = 3600.0

Step = Callable[[Pilot], Awaitable[None]]


async def _view(pilot: Pilot, name: str, *keys: str) -> None:
    while len(pilot.app.screen_stack) > 1:  # leave any detail or graph open before
        pilot.app.pop_screen()
        await pilot.pause(0.1)
    pilot.app.show_view(name)  # type: ignore[attr-defined]
    await pilot.pause(0.3)
    if keys:
        await pilot.press(*keys)
        await pilot.pause(0.3)


def shots(subscription_filter: str) -> list[tuple[str, Step]]:
    """(file name, how to get there) for every main screen."""

    async def graph(pilot: Pilot) -> None:
        await _view(pilot, "subscriptions", "slash", *subscription_filter, "enter")
        await pilot.press("g")
        await pilot.pause(0.5)

    async def detail(pilot: Pilot) -> None:
        await _view(pilot, "findings", "slash", *"OwnerConflict", "enter")
        await pilot.press("enter")
        await pilot.pause(0.5)

    simple = [
        ("overview", "overview"),
        ("namespaces", "namespaces"),
        ("operatorgroups", "operatorgroups"),
        ("csvs", "csvs"),
        ("subscriptions", "subscriptions"),
        ("findings", "findings"),
        ("catalogs", "catalogs"),
        ("changes", "changes"),
        ("installplans", "installplans"),
        ("xray", "xray"),
        ("clusterextensions", "clusterextensions"),
        ("clustercatalogs", "clustercatalogs"),
        ("upgrade", "upgrade"),
        ("migration", "migration"),
    ]
    steps: list[tuple[str, Step]] = [
        (name, lambda pilot, view=view: _view(pilot, view)) for name, view in simple
    ]
    steps.append(("graph", graph))
    steps.append(("object-detail", detail))
    return steps


async def take(session: Session, subscription_filter: str) -> list[Path]:
    app = OlmApp(session)
    written = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        if session.kind == "demo":
            while not session.store.count("ClusterServiceVersion"):
                await pilot.pause(0.2)
            await pilot.pause(2.0)
        for name, step in shots(subscription_filter):
            await step(pilot)
            path = OUT / f"{name}.svg"
            path.write_text(app.export_screenshot(title=f"olmtui: {name}"))
            written.append(path)
        if session.kind == "demo":
            written.append(await next_catalog_shot(pilot, session))
    return written


async def next_catalog_shot(pilot: Pilot, session: Session) -> Path:
    """``olmtui demo --next-catalog``: a ClusterExtension's detail against the demo's next
    release, what it lacks and the way out (taken last: the next catalog adds findings)."""
    from olmtui.commands.demo import next_catalogs

    session.next_catalogs = next_catalogs([""])
    await _view(pilot, "clusterextensions", "slash", *"opendatahub", "enter")
    await pilot.pause(0.5)
    path = OUT / "next-catalog.svg"
    path.write_text(pilot.app.export_screenshot(title="olmtui: next-catalog"))
    return path


async def resolution_shot() -> Path:
    """The Resolution view of a Subscription whose namespace cannot be resolved."""
    from olmtui.pipeline.build import snapshot_session
    from olmtui.ui.screens.resolution import ResolutionScreen

    catalog = RESOLUTION_CASE / "catalog-community-operators.yaml"
    session = snapshot_session(
        [str(RESOLUTION_CASE / "cluster.yaml")],
        [f"openshift-marketplace/community-operators={catalog}"],
        label="orphaned-csv-blocks-package",
    )
    app = OlmApp(session, initial_view="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        await pilot.press("r")
        for _ in range(100):
            await pilot.pause(0.1)
            screen = app.screen
            if isinstance(screen, ResolutionScreen) and screen.result is not None:
                break
        await pilot.pause(0.3)
        path = OUT / "resolution.svg"
        path.write_text(app.export_screenshot(title="olmtui: resolution"))
    return path


async def fleet_shot() -> Path:
    """The Fleet view (``olmtui replay --fleet``) over three snapshots: the packaged sample
    cluster, the resolution case and a real must-gather."""
    from olmtui.pipeline.fleet import FleetSettings
    from olmtui.pipeline.fleet_sessions import open_fleet
    from olmtui.pipeline.fleet_targets import TargetSpec, fleet_targets
    from olmtui.ui.fleet_app import FleetApp

    sample = str(files("olmtui").joinpath("samples", "cluster.yaml"))
    paths = (sample, str(RESOLUTION_CASE / "cluster.yaml"), str(FLEET_MUST_GATHER))
    fleet = open_fleet(fleet_targets(TargetSpec(paths=paths)), FleetSettings(parse_workers=None))
    app = FleetApp(fleet, fleet.sessions()[0])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(1.0)
        path = OUT / "fleet.svg"
        path.write_text(app.export_screenshot(title="olmtui: fleet"))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sample",
        action="store_true",
        help="replay the packaged sample cluster instead of the demo",
    )
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    if args.sample:
        from olmtui.pipeline.build import snapshot_session

        sample = str(files("olmtui").joinpath("samples", "cluster.yaml"))
        written = asyncio.run(take(snapshot_session([sample], label="sample cluster"), "etcd"))
    else:
        from olmtui.demo.cluster import DemoCluster
        from olmtui.pipeline.build import demo_session

        with DemoCluster(QUIET, cycles=1) as cluster:
            written = asyncio.run(take(demo_session(cluster), "keycloak"))
    written.append(asyncio.run(resolution_shot()))
    written.append(asyncio.run(fleet_shot()))
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
