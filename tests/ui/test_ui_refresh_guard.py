"""A refresh before a screen's children are mounted, or after they are gone, shows nothing
instead of ending the app: fast keys had the app refresh a screen as it was being built or
torn down (``NoMatches '#metrics'`` on the Overview, ``'#graph-info'``, the Resolution's
status, seen in CI). Every view the dashboard has, and the object detail, is refreshed (and
scoped) before it is pushed and again once it is popped."""

from __future__ import annotations

from conftest import KEYCLOAK, SAMPLE, wait_for
from data_paths import TESTS

from olmtui.kinds import SUBSCRIPTION
from olmtui.model.records.types import ObjectRef
from olmtui.pipeline.build import snapshot_session
from olmtui.pipeline.session import Session
from olmtui.ui import views
from olmtui.ui.app import OlmApp
from olmtui.ui.screens.base import ViewScreen
from olmtui.ui.screens.extension_graph import extension_graph
from olmtui.ui.screens.graph import graph_for
from olmtui.ui.screens.object_detail import ObjectScreen
from olmtui.ui.screens.olm_screen import OlmScreen
from olmtui.ui.screens.resolution import ResolutionScreen

V1_CLUSTER = str(TESTS / "data" / "ui" / "v1-cluster.yaml")
KEYCLOAK_SUB = ObjectRef(SUBSCRIPTION, "team-b", "keycloak-operator")


def _every_screen(session: Session) -> list[OlmScreen]:
    words = views.command_words()
    screens: list[OlmScreen] = [spec.screen(session, words) for spec in views.VIEWS]
    graph = graph_for(session, KEYCLOAK_SUB)
    assert graph is not None
    v1_graph = extension_graph(session, "keycloak")
    assert not isinstance(v1_graph, str), v1_graph
    screens += [
        graph,
        v1_graph,
        ResolutionScreen(session, words, "team-b", "keycloak-operator"),
        ObjectScreen(session, KEYCLOAK_SUB),
    ]
    return screens


def _refresh(screen: OlmScreen) -> None:
    if isinstance(screen, ViewScreen | ObjectScreen):
        screen.refresh_data()
    if isinstance(screen, ViewScreen):
        screen.apply_scope()


async def test_every_screen_refreshed_before_mount_and_after_unmount_keeps_the_app_up() -> None:
    session = snapshot_session([SAMPLE, V1_CLUSTER], [KEYCLOAK], label="guard")
    app = OlmApp(session)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(lambda: app.screen.is_mounted, "the first view", pilot=pilot)
        for screen in _every_screen(session):
            name = type(screen).__name__
            _refresh(screen)  # built, not yet mounted: no children
            await app.push_screen(screen)
            await wait_for(
                lambda s=screen: s.is_mounted and s.parts_present(), f"{name} up", pilot=pilot
            )
            _refresh(screen)  # mounted: the guard lets a real refresh through
            await app.pop_screen()
            await wait_for(lambda s=screen: not s.parts_present(), f"{name} gone", pilot=pilot)
            _refresh(screen)  # its children gone
        assert app.is_running and app.return_code is None
