"""The dashboard's browser scripts (dashboard/assets/*.js) pass ESLint with the committed configuration
(eslint.config.mjs; ESLint's version is pinned by package.json and package-lock.json, installed with ``npm ci``).

Needs Node.js and npm (``apt-get install nodejs npm``) and, the first time, the npm registry. Outside CI a missing
npm or registry skips with the reason; under CI (``CI=true``, or ``DIGSITE_REQUIRE_NODE=1`` as .ci/run sets) it
fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true" or os.environ.get("DIGSITE_REQUIRE_NODE"):
        pytest.fail(f"{reason} (required under CI)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def eslint() -> Path:
    """ESLint at the version package-lock.json pins, installed into node_modules/ by ``npm ci`` if absent."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        _unavailable("Node.js and npm are not installed (apt-get install nodejs npm)")
    if not ESLINT.exists():
        done = subprocess.run(
            [str(npm), "ci", "--no-audit", "--no-fund"], cwd=ROOT, capture_output=True, text=True, timeout=600
        )
        if done.returncode != 0 or not ESLINT.exists():
            _unavailable(f"npm ci could not install ESLint: {done.stderr.strip()[-800:]}")
    return ESLINT


def _lint(eslint: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(eslint), "--max-warnings", "0", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=300
    )


def test_the_browser_scripts_pass_eslint(eslint: Path) -> None:
    scripts = sorted((ROOT / "dashboard" / "assets").glob("*.js")) + sorted((ROOT / "dashboard" / "head").glob("*.js"))
    assert scripts, "no scripts in dashboard/assets"
    done = _lint(eslint, *(str(p.relative_to(ROOT)) for p in scripts))
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_configuration_applies_to_the_assets(eslint: Path) -> None:
    """A script in the assets folder with a loose comparison and a stray global is refused: the rules are in
    force there (a configuration that matched no file would pass anything)."""
    bad = '(function () {\n    "use strict";\n    if (window.name == "x") { leaked = 1; }\n})();\n'
    done = _lint(eslint, "--stdin", "--stdin-filename", "dashboard/assets/probe.js", stdin=bad)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "eqeqeq" in done.stdout and "no-undef" in done.stdout
