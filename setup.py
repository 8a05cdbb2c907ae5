"""The build: the game loop compiled by mypyc when a C compiler is found, else plain Python.

Everything else about the package is in pyproject.toml. The compiled build runs the modules
listed in compiled-modules.txt through mypyc (C extension modules made from the same typed
Python, playing the same games faster: `SPEED`, measured); the release wheels are built that
way.
`DECKBUILDER_COMPILE` chooses:

- unset (or `auto`): compiled when a C compiler that finds Python's headers works, else the
  plain package with a warning; a compiled build that fails also falls back to plain, saying
  so. An editable install (`pip install -e .`) is plain: a compiled module would hide every
  edit of its source. So is the environment pre-commit makes for the hooks of
  .pre-commit-hooks.yaml: checking decks costs the same in either build.
- `1`: compiled or fail (CI and release wheels: never a plain wheel by accident).
- `0`: plain Python (the test environment: the tests patch engine classes, which compiled
  classes do not allow).

mypy (which holds mypyc) and the package's own dependencies (mypyc starts from a type check)
are asked for as build requirements only when the build compiles; a plain build needs neither.
The C files mypyc writes (one a module) are compiled by parallel C compiler processes, one a
core. The extension modules built are kept in the user's cache folder, keyed by the sources:
installing the same sources again (with an extra, say) copies them instead of compiling.

pip shows a build's output only under `pip install -v`, so the build's progress and warnings
also go to the terminal pip runs in, when there is one (`say`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import tomllib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PREFIX = "deckbuilder build:"
WARNING = f"{PREFIX} WARNING:"


def speed_claim() -> str:
    """The measured speed-up the package quotes (`deckbuilder.build.speed_claim`, reading
    deckbuilder/data/speed.json), loaded by its path: the package is not installed yet."""
    spec = importlib.util.spec_from_file_location("deckbuilder_build",
                                                  HERE / "deckbuilder" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.speed_claim())


SPEED = speed_claim()
PLAIN_COST = ("the package is built as plain Python; the compiled build plays the same games "
              f"{SPEED}")
HOW_TO_COMPILE = ("install a C compiler and Python's headers (e.g. `apt install gcc "
                  "python3-dev`) and install again; DECKBUILDER_COMPILE=0 builds plain Python "
                  "without this warning")
#: The C compiler's optimisation level for mypyc's C: -O2 plays the games as fast as -O3 did
#: (docs/maintainers/performance.md) for less compile time.
OPT_LEVEL = "2"
#: The level for the modules compiled-modules.txt marks `cold`: a game spends under 0.1% of
#: its instructions in each (set-up, rare effects; benchmarks/count_instructions.py), and -O1
#: compiles them in about 60% of -O2's time.
COLD_OPT_LEVEL = "1"
#: How many built extension sets the cache keeps (the newest).
CACHE_KEPT = 3


def compile_requires() -> list[str]:
    """What the compiled build needs besides setuptools: mypy (which holds mypyc) and the
    package's own dependencies from pyproject.toml, which the type check imports."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return ["mypy>=2.4", *project["dependencies"]]


def listed_modules() -> list[list[str]]:
    """compiled-modules.txt's lines as words (comments and blank lines skipped): a path, and
    `cold` for a module a game spends almost no time in (set-up, rare effects)."""
    text = (HERE / "compiled-modules.txt").read_text(encoding="utf-8")
    return [line.split() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def compiled_modules() -> list[str]:
    """The paths compiled-modules.txt lists."""
    return [words[0] for words in listed_modules()]


def cold_sources() -> set[str]:
    """The C files (as mypyc names them) of the modules marked `cold`: compiled at
    COLD_OPT_LEVEL."""
    return {"__native_" + words[0].removesuffix(".py").replace("/", "___") + ".c"
            for words in listed_modules() if words[1:] == ["cold"]}


def compile_mode() -> str:
    """"plain", "auto" or "required", from DECKBUILDER_COMPILE."""
    value = os.environ.get("DECKBUILDER_COMPILE", "").strip().lower()
    if value in {"0", "false", "no", "off"}:
        return "plain"
    if value in {"1", "true", "yes", "on"}:
        return "required"
    if value in {"", "auto"}:
        return "auto"
    raise SystemExit(f"DECKBUILDER_COMPILE={value!r}: use 1 (compiled), 0 (plain) or auto")


def say(text: str, *, terminal: bool = True) -> None:
    """One line of the build's progress, on stderr (`pip install -v`, `python -m build`, CI
    logs) and, unless stderr is the terminal already, on the terminal pip was started from:
    pip hides a build's output unless verbose (there is no channel from a build backend to
    pip's normal output), and a silent build of minutes looks hung. No terminal (CI, a
    service): stderr only."""
    line = f"{PREFIX} {text}"
    print(line, file=sys.stderr, flush=True)
    if not terminal or sys.stderr.isatty():
        return
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            tty.write(f"\n{line}\n")  # pip's spinner goes on on the line below
    except OSError:  # no controlling terminal
        pass


def warn(text: str) -> None:
    """A warning: on the terminal too from the run that builds (pip runs this file again for
    each of its questions: the requirements, the metadata, the wheel)."""
    say(f"WARNING: {text}", terminal=building_extensions())


def compiler_problem() -> str | None:
    """Why no C extension can be built here (None: a compiler compiled a file that includes
    Python.h). Asked before mypy is even fetched: a machine without a compiler builds plain
    Python at once."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "probe.c")
        source.write_text("#include <Python.h>\nint deckbuilder_probe(void) { return 0; }\n",
                          encoding="utf-8")
        try:
            compiler = new_compiler()
            customize_compiler(compiler)
            compiler.compile([str(source)], output_dir=folder,
                             include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as error:  # any failure means the same: no extension here
            return " ".join(str(error).split())[:300] or type(error).__name__
    return None


def asked_for_requirements() -> bool:
    """Is the build front end asking which requirements the build has (PEP 517's
    get_requires_for_build_*)? setuptools answers by running this file with a Distribution
    that reports setup_requires instead of fetching them. At any other time setup_requires
    would be fetched by setuptools itself (past pip, offline or not), so they are not given."""
    import distutils.core  # setuptools' copy (setuptools is imported): the one it patches

    return distutils.core.Distribution.__module__ == "setuptools.build_meta"


#: PEP 517/660 hooks whose build needs no compiled module: an editable install (a compiled
#: module would hide every edit of its source) and the sdist (sources only).
PLAIN_HOOKS = {"get_requires_for_build_editable", "prepare_metadata_for_build_editable",
               "build_editable", "get_requires_for_build_sdist", "build_sdist"}


def building_plain_only() -> bool:
    """Is this an editable install or an sdist? The build runs `editable_wheel` or `sdist`;
    the question of its requirements comes through its own hook, found on the call stack
    (which spares a development install or an sdist fetching mypy for nothing)."""
    if {"editable_wheel", "sdist"} & set(sys.argv[1:]):
        return True
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        if frame.f_code.co_name in PLAIN_HOOKS:
            return True
        frame = frame.f_back
    return False


def building_extensions() -> bool:
    """Is this run the one that builds (a wheel, or the legacy install)? Metadata and the
    sdist need no extension, and mypyc (a type check, then C) takes a minute."""
    return bool({"bdist_wheel", "build", "build_ext", "install"} & set(sys.argv[1:]))


def in_precommit_environment() -> bool:
    """Is pip installing this package into the environment pre-commit makes for a hook?
    pre-commit clones the hook repository, makes a virtual environment `py_env-VERSION`
    inside the clone and runs `pip install .` there with VIRTUAL_ENV naming it (pre-commit's
    languages/python.py); a hook's configuration cannot set the environment of that install."""
    environment = os.environ.get("VIRTUAL_ENV", "")
    if not environment:
        return False
    folder = Path(environment)
    return folder.name.startswith("py_env-") and folder.parent.resolve() == HERE


# -- the cache of built extension modules ------------------------------------------------------
def cache_root() -> Path | None:
    """Where built extension modules are kept: $DECKBUILDER_BUILD_CACHE (`off`: nowhere), else
    `build/` in the package's cache folder ($DECKBUILDER_CACHE, else the platform's, as
    deckbuilder/paths.py finds it without platformdirs, which a plain build does not have)."""
    chosen = os.environ.get("DECKBUILDER_BUILD_CACHE", "").strip()
    if chosen.lower() in {"off", "0", "no", "false"}:
        return None
    if chosen:
        return Path(chosen).expanduser()
    package_cache = os.environ.get("DECKBUILDER_CACHE", "").strip()
    if package_cache:
        return Path(package_cache).expanduser() / "build"
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local"))
        return base / "deckbuilder" / "Cache" / "build"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "deckbuilder" / "build"
    return Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "deckbuilder" / "build"


def source_key() -> str:
    """What the compiled modules are made from: every module of the package (mypyc's type
    check reads them all), this file and the module list, the mypy settings, the Python and
    platform they are built for and the C compiler's settings from the environment."""
    digest = hashlib.sha256()
    project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))
    facts = [sys.version, sys.implementation.cache_tag, sysconfig.get_platform(),
             sysconfig.get_config_var("EXT_SUFFIX"), json.dumps(project.get("tool", {})
                                                                 .get("mypy", {}), sort_keys=True),
             *(os.environ.get(name, "") for name in ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS"))]
    digest.update("\0".join(map(str, facts)).encode())
    sources = [HERE / "setup.py", HERE / "compiled-modules.txt",
               *sorted((HERE / "deckbuilder").rglob("*.py")),
               *sorted((HERE / "deckbuilder").rglob("*.pyi"))]
    for path in sources:
        digest.update(f"\0{path.relative_to(HERE).as_posix()}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def cached_build() -> Path | None:
    """The folder of extension modules built before from these very sources, if kept."""
    root = cache_root()
    if root is None:
        return None
    folder = root / source_key()
    return folder if (folder / "extensions.json").is_file() else None


def keep_in_cache(build_lib: str, outputs: dict[str, str]) -> None:
    """Keep the extension modules just built (name -> path under build_lib) for the next
    install of the same sources; the oldest sets beyond CACHE_KEPT go. Written whole under a
    temporary name and renamed, so a reader never sees half a set; any failure only costs
    the next install a compile."""
    root = cache_root()
    if root is None:
        return
    try:
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=root))
        for relative in outputs.values():
            (staging / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(Path(build_lib, relative), staging / relative)
        (staging / "extensions.json").write_text(json.dumps(outputs, indent=1), encoding="utf-8")
        try:
            staging.rename(root / source_key())
        except OSError:  # kept already (a build alongside): this copy is not needed
            shutil.rmtree(staging, ignore_errors=True)
        kept = sorted((entry for entry in root.iterdir() if not entry.name.startswith(".")),
                      key=lambda entry: entry.stat().st_mtime, reverse=True)
        for old in kept[CACHE_KEPT:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as error:
        say(f"could not keep the compiled modules in {root} ({error}); the next install "
            f"compiles again", terminal=False)


class FromCache(build_ext):
    """build_ext that copies extension modules built before from the same sources."""

    def run(self) -> None:
        folder = cached_build()
        if folder is None:
            raise SystemExit(f"{PREFIX} the compiled modules left the cache during the build; "
                             "install again")
        outputs: dict[str, str] = json.loads((folder / "extensions.json").read_text("utf-8"))
        for relative in outputs.values():
            target = Path(self.build_lib, relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(folder / relative, target)
        os.utime(folder)  # the newest used, the last pruned


def cached_extensions() -> list[Extension]:
    """Stand-ins for the cached extension modules (names only: FromCache copies the files),
    which make the wheel a platform wheel that lists them."""
    folder = cached_build()
    assert folder is not None
    names = json.loads((folder / "extensions.json").read_text(encoding="utf-8"))
    return [Extension(name, sources=[]) for name in names]


# -- compiling ---------------------------------------------------------------------------------
def mypyc_extensions() -> list[Extension] | None:
    """The compiled modules' extensions, made by mypyc (None, with a warning, when mypyc
    fails and the compiled build was not required). mypyc runs in a child process
    (`generate_c`) that leaves without tearing down its type check: freeing mypy's millions
    of objects at exit took 6 to 9 s of CPU, a tenth of the compiled install."""
    say(f"compiling the game loop ({len(compiled_modules())} modules) to C with mypyc, which "
        f"plays the games {SPEED}: a type check and C generation, then a C "
        f"compiler on {build_jobs()} core(s); about a minute of CPU (DECKBUILDER_COMPILE=0 "
        f"builds plain Python in seconds)")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="deckbuilder-mypyc-") as folder:
        answer = Path(folder, "extensions.json")
        child = subprocess.run([sys.executable, str(HERE / "setup.py"), GENERATE_C,
                                str(answer)], cwd=HERE, check=False)
        if child.returncode != 0 or not answer.is_file():
            if compile_mode() == "required":
                raise SystemExit(f"{PREFIX} mypyc failed (exit {child.returncode}); its "
                                 f"messages are above")
            warn(f"mypyc failed (exit {child.returncode}; its messages are above): "
                 f"{PLAIN_COST}.")
            return None
        described = json.loads(answer.read_text(encoding="utf-8"))
    say(f"C generated in {time.monotonic() - started:.0f} s", terminal=False)
    return [extension_from(fields) for fields in described]


#: The argument that makes setup.py the child process that runs mypyc (`generate_c`).
GENERATE_C = "--deckbuilder-generate-c"


def extension_from(fields: dict[str, Any]) -> Extension:
    """An Extension from the attributes `generate_c` wrote (JSON made tuples lists)."""
    extension = Extension(fields["name"], sources=fields["sources"])
    extension.__dict__.update(fields)
    extension.define_macros = [tuple(macro) for macro in extension.define_macros]
    return extension


def generate_c(answer: str) -> None:
    """The child process: mypyc writes the C files under build/, and the extensions that
    compile them go to `answer` as JSON. It leaves with os._exit once the answer is written,
    so mypy's type check is never freed object by object."""
    from mypyc.build import mypycify

    try:
        extensions = mypycify(compiled_modules(), opt_level=OPT_LEVEL, debug_level="0",
                              multi_file=True)
        Path(answer).write_text(json.dumps([vars(extension) for extension in extensions]),
                                encoding="utf-8")
        status = 0
    except (Exception, SystemExit) as error:  # mypyc exits on a type error
        print(f"{PREFIX} mypyc: {' '.join(str(error).split())[:300]}", file=sys.stderr)
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def build_jobs() -> int:
    """C compiler processes at once: one a core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def children_cpu() -> float:
    """CPU seconds of the finished child processes (the C compiler's; 0 where not counted)."""
    times = os.times()
    return times.children_user + times.children_system


def run_all(jobs: int, tasks: list[Callable[[], object]]) -> None:
    """Run the tasks on `jobs` threads; the first failure cancels the tasks not started yet
    (a compile that failed need not wait for every other file) and is raised."""
    with ThreadPoolExecutor(jobs) as pool:
        started = [pool.submit(task) for task in tasks]
        try:
            for task in started:
                task.result()
        except BaseException:
            for task in started:
                task.cancel()
            raise


def source_size(extension: Extension) -> int:
    return sum(os.path.getsize(source) for source in extension.sources)


class ParallelCompile:
    """A C compiler's `compile` whose object files are made by up to `jobs` processes at once
    across every extension (the biggest file first), saying how far it is."""

    def __init__(self, compiler: Any, jobs: int, total: int) -> None:
        self.compiler, self.total, self.done = compiler, total, 0
        self.slots = threading.BoundedSemaphore(jobs)
        self.lock = threading.Lock()
        self.jobs = jobs

    def compile(self, sources: list[str], output_dir: str | None = None,
                macros: Any = None, include_dirs: list[str] | None = None, debug: bool = False,
                extra_preargs: list[str] | None = None, extra_postargs: list[str] | None = None,
                depends: list[str] | None = None) -> list[str]:
        compiler = self.compiler
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        cold = cold_sources()

        def one(target: str) -> None:
            source, extension = build[target]
            postargs = [*extra_postargs, f"-O{COLD_OPT_LEVEL}"] \
                if Path(source).name in cold else extra_postargs  # the last -O counts
            with self.slots:
                started = time.monotonic()
                compiler._compile(target, source, extension, cc_args, postargs, pp_opts)
            self.tell(source, time.monotonic() - started)

        biggest_first = sorted(build, key=lambda target: -os.path.getsize(build[target][0]))
        run_all(self.jobs, [partial(one, target) for target in biggest_first])
        return list(objects)

    def tell(self, source: str, seconds: float) -> None:
        with self.lock:
            self.done += 1
            done = self.done
        quarter = done * 4 // self.total > (done - 1) * 4 // self.total
        say(f"compiled {done}/{self.total} C files ({Path(source).name}: {seconds:.1f} s)",
            terminal=quarter and done < self.total)


class CompileOrFallBack(build_ext):
    """build_ext that compiles every extension's C files in parallel and keeps the result in
    the cache and that, unless the compiled build was required, falls back to plain Python
    when the C compiler fails: no extension is left behind, the .py modules are the package
    (in a wheel still tagged for this platform)."""

    def build_extensions(self) -> None:
        self.check_extensions_list(self.extensions)
        jobs = build_jobs()
        total = sum(len(extension.sources) for extension in self.extensions)
        self.compiler.compile = ParallelCompile(self.compiler, jobs, total).compile
        run_all(jobs, [partial(self.build_extension, extension) for extension
                       in sorted(self.extensions, key=source_size, reverse=True)])

    def run(self) -> None:
        started, cpu = time.monotonic(), children_cpu()
        try:
            super().run()
        except (Exception, SystemExit) as error:
            if compile_mode() == "required":
                raise
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            warn(f"the compiled build failed ({' '.join(str(error).split())[:300]}): "
                 f"{PLAIN_COST}.")
            return
        say(f"compiled in {time.monotonic() - started:.0f} s "
            f"({children_cpu() - cpu:.0f} s of CPU)")
        if self.inplace:  # `build_ext --inplace`: the modules are not under build_lib
            return
        keep_in_cache(self.build_lib, {
            extension.name: os.path.relpath(self.get_ext_fullpath(extension.name),
                                            self.build_lib)
            for extension in self.extensions})


def plan() -> str:
    """"plain", "compile", "cached" (copy the modules built before from these sources) or
    "ask" (return the compiled build's requirements), saying why a build that could have
    compiled does not."""
    mode = compile_mode()
    if mode == "plain" or (building_plain_only() and mode == "auto"):
        return "plain"
    if mode == "auto" and in_precommit_environment():
        if building_extensions():
            say("plain Python for a pre-commit hook's environment (checking files costs the "
                "same in either build; DECKBUILDER_COMPILE=1 compiles)", terminal=False)
        return "plain"
    if cached_build() is not None:
        return "cached"
    problem = compiler_problem()
    if problem is not None:
        if mode == "required":
            raise SystemExit(f"DECKBUILDER_COMPILE=1 but no C extension can be built here: "
                             f"{problem}")
        warn(f"no working C compiler ({problem}): {PLAIN_COST}; {HOW_TO_COMPILE}.")
        return "plain"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        if asked_for_requirements():
            return "ask"
        if mode == "required":
            raise SystemExit("DECKBUILDER_COMPILE=1 but mypyc is missing: build with "
                             "build isolation (the default of pip and `python -m build`), "
                             "or install mypy first") from None
        warn(f"mypyc is missing (a build without isolation, with no mypy installed): "
             f"{PLAIN_COST}; install mypy first, or build with isolation.")
        return "plain"
    return "compile"


def main() -> None:
    chosen = plan()
    if chosen == "ask":
        setup(setup_requires=compile_requires())
        return
    if chosen == "cached" and building_extensions():
        say(f"copying the modules compiled before from these same sources, kept in "
            f"{cached_build()} (no compile needed)")
        setup(ext_modules=cached_extensions(), cmdclass={"build_ext": FromCache})
        return
    extensions = mypyc_extensions() if chosen == "compile" and building_extensions() else None
    if extensions is None:
        setup()
    else:
        setup(ext_modules=extensions, cmdclass={"build_ext": CompileOrFallBack})


if __name__ == "__main__":  # as setuptools runs it (tests import it to check `plan`)
    if sys.argv[1:2] == [GENERATE_C]:
        generate_c(sys.argv[2])
    main()
