"""The shipped `.pre-commit-hooks.yaml`, run by pre-commit itself.

A temporary git repository holds this checkout's package and hook file (committed there, so
pre-commit can clone it at a rev exactly as it clones a published repository); a second one is
a user's repository of decks and card sets with a `.pre-commit-config.yaml` naming those
hooks. pre-commit builds its own environment from the hook repository (`pip install .`, the
dependencies from the package index), once for the module: a minute or so the first time.
Skipped when pre-commit or git is missing, or the environment cannot be built (no index).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASE_DECKS = ROOT / "deckbuilder" / "data" / "decks"
SETS = ROOT / "tests" / "fixtures" / "sets"
#: What `pip install .` needs of the checkout (the sdist's test data is not needed): setup.py
#: too, which builds the hooks' environment plain by itself (no DECKBUILDER_COMPILE).
PACKAGE_FILES = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", ".pre-commit-hooks.yaml",
                 "setup.py", "compiled-modules.txt")

pytestmark = pytest.mark.skipif(
    shutil.which("pre-commit") is None or shutil.which("git") is None,
    reason="pre-commit and git are needed (pip install -e '.[test]')",
)


def git(folder: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid",
         "-c", "commit.gpgsign=false", *args],
        cwd=folder, check=True, capture_output=True, text=True,
    ).stdout.strip()


def hook_repository(folder: Path) -> str:
    """A git repository of this checkout's package and hooks; its commit."""
    folder.mkdir()
    for name in PACKAGE_FILES:
        shutil.copy2(ROOT / name, folder / name)
    shutil.copytree(ROOT / "deckbuilder", folder / "deckbuilder", symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "hooks")
    return git(folder, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def user_repository(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A user's repository of decks and sets using the hooks, and pre-commit's environment
    (its own cache folder, the user data folder empty)."""
    base = tmp_path_factory.mktemp("precommit")
    rev = hook_repository(base / "hooks")
    user = base / "user"
    (user / "decks").mkdir(parents=True)
    (user / "sets").mkdir()
    (user / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {base / 'hooks'}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: deckbuilder-validate\n"
        "      - id: deckbuilder-sets-check\n",
        encoding="utf-8",
    )
    git(user, "init", "-q")
    environment = {**os.environ, "PRE_COMMIT_HOME": str(base / "cache"),
                   "DECKBUILDER_HOME": str(base / "home"), "PRE_COMMIT_COLOR": "never",
                   "DECKBUILDER_BUILD_CACHE": str(base / "build-cache")}
    environment.pop("VIRTUAL_ENV", None)
    environment.pop("DECKBUILDER_COMPILE", None)  # as on a user's machine
    installed = subprocess.run(["pre-commit", "install-hooks"], cwd=user, env=environment,
                               capture_output=True, text=True, timeout=900)
    if installed.returncode != 0:
        pytest.skip("pre-commit could not build the hook environment (no package index?): "
                    + (installed.stdout + installed.stderr)[-500:])
    # plain Python, though a C compiler may be here: checking files costs the same in either
    # build, and the compiled one takes minutes to build (setup.py, in_precommit_environment)
    engine = list((base / "cache").glob("repo*/py_env-*/lib/python*/site-packages/"
                                        "deckbuilder/engine"))
    assert len(engine) == 1 and (engine[0] / "state.py").is_file()
    assert not [module.name for module in engine[0].iterdir() if module.suffix in {".so", ".pyd"}]
    return user, environment


def run_hooks(user: Path, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    git(user, "add", "-A")
    return subprocess.run(["pre-commit", "run", "--all-files"], cwd=user, env=environment,
                          capture_output=True, text=True, timeout=600)


def test_the_hook_file_names_commands_that_take_several_files() -> None:
    from ruamel.yaml import YAML

    hooks = {hook["id"]: hook for hook in YAML(typ="safe").load(ROOT / ".pre-commit-hooks.yaml")}
    assert {"deckbuilder-validate", "deckbuilder-sets-check"} <= set(hooks)
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["entry"].startswith("deckbuilder ")
        assert hook.get("pass_filenames", True)  # every matching file, in one call or a few


def test_good_decks_and_sets_pass(user_repository: tuple[Path, dict[str, str]]) -> None:
    user, environment = user_repository
    for stale in (*(user / "decks").iterdir(), *(user / "sets").iterdir()):
        stale.unlink()
    shutil.copy2(BASE_DECKS / "colty-base.yaml", user / "decks" / "colty.yaml")
    shutil.copy2(BASE_DECKS / "example-mcready-pinkertons.yaml", user / "decks" / "mcready.yaml")
    shutil.copy2(SETS / "homebrew-base.yaml", user / "sets" / "homebrew-base.yaml")
    shutil.copy2(SETS / "cycle-a.yaml", user / "sets" / "cycle-a.yaml")  # two files, one call
    result = run_hooks(user, environment)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("Passed") == 2, result.stdout  # both hooks ran, on their files


def test_a_bad_deck_and_a_bad_set_fail_the_commit(
        user_repository: tuple[Path, dict[str, str]]) -> None:
    user, environment = user_repository
    shutil.copy2(BASE_DECKS / "colty-base.yaml", user / "decks" / "colty.yaml")
    deck = (BASE_DECKS / "colty-base.yaml").read_text(encoding="utf-8")
    assert "\ncards:\n" in deck
    (user / "decks" / "broken.yaml").write_text(
        deck.replace("\ncards:\n", "\ncards:\n  no-such-card: 1\n"), encoding="utf-8")
    shutil.copy2(SETS / "every-problem.yaml", user / "sets" / "every-problem.yaml")
    result = run_hooks(user, environment)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "broken.yaml" in output and "no-such-card" in output
    assert "every-problem.yaml" in output
    assert "colty.yaml" in output  # the good deck was checked in the same call, and passed
    assert output.count("Failed") == 2


def test_a_homebrew_repository_passes_on_a_clean_machine(
        user_repository: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    """The README's set-up: `sets-dir` in deckbuilder.toml; the decks use the homebrew set,
    the data folder ($DECKBUILDER_HOME) is empty, and a broken homebrew set fails the hook."""
    first, environment = user_repository
    user = tmp_path / "homebrew-repo"
    (user / "decks").mkdir(parents=True)
    (user / "homebrew").mkdir()
    shutil.copy2(first / ".pre-commit-config.yaml", user / ".pre-commit-config.yaml")
    (user / "deckbuilder.toml").write_text('sets-dir = "homebrew"\n', encoding="utf-8")
    shutil.copy2(SETS / "homebrew-base.yaml", user / "homebrew" / "town.yaml")
    deck = (BASE_DECKS / "mcready-base.yaml").read_text(encoding="utf-8")
    line = "\n  you-keep-makin-the-same-mistakes-pilgrim: 3"
    assert line in deck and "\nsets: [revolver-base]\n" in deck
    deck = deck.replace(line, line[:-1] + "1\n  test-ambush: 2").replace(
        "\nsets: [revolver-base]\n", "\nsets: [revolver-base, test-frontier-town]\n")
    (user / "decks" / "homebrew.yaml").write_text(deck, encoding="utf-8")
    git(user, "init", "-q")
    clean = {**environment, "DECKBUILDER_HOME": str(tmp_path / "empty-home")}
    result = run_hooks(user, clean)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("Passed") == 2, result.stdout  # the deck and the set
    assert not (tmp_path / "empty-home" / "sets").exists()
    shutil.copy2(SETS / "every-problem.yaml", user / "homebrew" / "broken.yaml")
    result = run_hooks(user, clean)
    assert result.returncode == 1 and "broken.yaml" in result.stdout + result.stderr
