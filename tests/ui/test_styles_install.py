"""The stylesheets are found one way in every install: a wheel installed outside the
repository (``pip install .``) finds the ``styles/`` it carries as ``olmtui/styles``; the
editable install of this checkout (``pip install -e .``) finds the checkout's ``styles/``,
live, not the copy hatch writes into site-packages at install time."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

from olmtui.ui.styles import styles_dir
from tests.data_paths import DATA

#: The checkout this test runs from.
ROOT = DATA.parent.parent

#: Run inside the installed wheel: the stylesheet's path, then the app started headless with
#: a rule of ``app.tcss`` applied (the Screen's layers).
APP_SCRIPT = """
import asyncio
from importlib.resources import files

from olmtui.pipeline.build import snapshot_session
from olmtui.ui.app import OlmApp
from olmtui.ui.styles import stylesheet


async def main() -> None:
    print(stylesheet("app.tcss"))
    app = OlmApp(snapshot_session([str(files("olmtui").joinpath("samples", "cluster.yaml"))]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        print("layers:", ",".join(app.screen.styles.layers))


asyncio.run(main())
"""


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_editable_install_reads_the_checkouts_styles_live():
    assert styles_dir() == ROOT / "styles"
    site_copy = Path(sysconfig.get_paths()["purelib"]) / "olmtui" / "styles"
    assert styles_dir() != site_copy


def test_wheel_installed_outside_the_repository_finds_its_styles(tmp_path):
    wheels = tmp_path / "wheels"
    built = _run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(wheels)],
        tmp_path,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("olmtui-*.whl")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    installed = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "-q",
            str(wheel),
        ],
        tmp_path,
    )
    assert installed.returncode == 0, installed.stderr
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            tmp_path,
        ).stdout.strip()
    )
    # The dependencies (Textual, ...) from this environment, after the wheel's own olmtui:
    # this environment's editable olmtui is never reached (its .pth is not read from here).
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    check = _run([str(venv / "bin" / "olmtui"), "check", "--sample"], tmp_path)
    assert check.returncode in (0, 1), check.stderr

    app = _run([str(python), "-c", APP_SCRIPT], tmp_path)
    assert app.returncode == 0, app.stderr
    path, layers = app.stdout.strip().splitlines()[-2:]
    assert Path(path) == site / "olmtui" / "styles" / "app.tcss"
    assert not Path(path).is_relative_to(ROOT)
    assert layers == "layers: default,prompt"

    # Nothing is probed for: with the installed styles gone, a folder that happens to be
    # called ``styles`` beside the package is not taken for them (the old probe took it).
    (site / "olmtui" / "styles" / "app.tcss").rename(site / "app.tcss.moved")
    (site / "olmtui" / "styles").rmdir()
    (site / "styles").mkdir()
    (site / "app.tcss.moved").rename(site / "styles" / "app.tcss")
    broken = _run([str(python), "-c", "import olmtui.ui.app"], tmp_path)
    assert broken.returncode != 0
    assert "olmtui styles folder" in broken.stderr and "broken installation" in broken.stderr
