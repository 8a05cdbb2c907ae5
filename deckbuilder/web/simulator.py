"""The simulator page: `deckbuilder simulate` (with `--baseline`, or a field of opponents) in
the browser. The decks are read and played by the command's own service (`app`), so for the
same seed the page's JSON is the command's `--json` (tests/test_faces_agree.py). The games
run in a thread per simulation (`simulation_jobs`) while the page follows them by
Server-Sent Events; when the page goes away the stream ends and the games stop.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any, cast

from markupsafe import Markup
from pydantic import JsonValue
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from deckbuilder.app.bot_checks import check_gauntlet, check_simulation
from deckbuilder.app.endings import ending_words
from deckbuilder.app.field_runs import GauntletPlan, plan_gauntlet, run_gauntlet_plan
from deckbuilder.app.json_values import as_plain_json
from deckbuilder.app.play_decks import side_of_deck
from deckbuilder.app.rule_listing import game_rules
from deckbuilder.app.running import PlayOptions
from deckbuilder.app.simulation_plan import (
    SimulationPlan,
    check_plan,
    default_workers,
    plan_simulation,
    planned_sensitivity,
    simulation_report,
)
from deckbuilder.app.spellings import BOT_EXAMPLES, UnknownBotError, read_bot_spec
from deckbuilder.errors import DeckbuilderError
from deckbuilder.sim.reports.bot_check import verdict_lines
from deckbuilder.sim.reports.field_json import GauntletReport
from deckbuilder.sim.reports.simulate_json import SimulationReport
from deckbuilder.sim.runs.runner import GameResult
from deckbuilder.web.config import WebConfig, config_of, deck_files, resolve_deck_path
from deckbuilder.web.pages import fragment, render
from deckbuilder.web.simulation_jobs import SimulationJob, jobs_of

#: The most games one web simulation plays: every result is kept for the charts (a few
#: kilobytes each), and a page is no place for a run of hours; the command line has no cap.
MAX_GAMES = 100_000
#: The seed is any integer the command line takes, within reason (18 digits).
MAX_SEED = 10**18
#: How often the event stream looks at the job, and how often it says it is alive.
POLL_SECONDS = 0.2
HEARTBEAT_SECONDS = 2.0


class SimulationInputError(DeckbuilderError):
    """A form value the command line would refuse too (bad number, unknown choice)."""


class NoSuchSimulation(DeckbuilderError):
    status = 404


# -- reading the form ------------------------------------------------------------------------
def number(form: Mapping[str, object], name: str, default: int | float, low: float, high: float,
           kind: type = int) -> Any:
    """A number field of the form, as the command line's option would take it (bounded)."""
    text = str(form.get(name) or "").strip()
    if not text:
        return default
    try:
        value = kind(text)
    except ValueError:
        raise SimulationInputError(f"{name.replace('_', ' ')} '{text[:40]}' is not a number",
                                   fix=f"give a number from {low:g} to {high:g}") from None
    if not low <= value <= high:
        raise SimulationInputError(f"{name.replace('_', ' ')} {value} is out of range",
                                   fix=f"give a number from {low:g} to {high:g}")
    return value


def bot_spec(text: str, what: str) -> str:
    """The bot spec as the command line's --bot parser reads it."""
    try:
        return read_bot_spec(text or "greedy")
    except UnknownBotError as error:
        raise SimulationInputError(f"{what}: {error.message}") from None


def deck_argument(config: WebConfig, choice: str) -> str:
    """What the command line would be given for the page's `base:FACTION`,
    `packaged:NAME` or `file:NAME` (which must stay inside the deck folder)."""
    from deckbuilder import packaged_deck
    from deckbuilder.decks import FACTION_GAMES

    kind, _, name = choice.strip().partition(":")
    if kind == "base" and name in FACTION_GAMES:
        return name
    if kind == "packaged":
        return str(packaged_deck(name))
    if kind == "file":
        return str(resolve_deck_path(config, name))
    raise SimulationInputError(f"unknown deck '{choice[:60]}'",
                               fix="choose a base deck, a packaged deck or a file of the "
                                   "deck folder")


def opponent_argument(config: WebConfig, choice: str) -> str:
    """A packaged opponent by its name, as the report's `source` says, not by its path."""
    argument = deck_argument(config, choice)
    kind, _, name = choice.partition(":")
    return name if kind == "packaged" else argument


def play_options(form: FormData) -> tuple[PlayOptions, float]:
    """The form's settings and precision, checked as the command line checks its options."""
    games = number(form, "games", 1000, 1, MAX_GAMES)
    seed = number(form, "seed", 1, -MAX_SEED, MAX_SEED)
    max_turns = number(form, "max_turns", 200, 1, 10_000)
    precision = number(form, "precision", 0.02, 0.001, 0.5, float)
    bot = bot_spec(str(form.get("bot") or ""), "bot")
    opponent_bot = bot_spec(str(form.get("opponent_bot") or bot), "opponent bot")
    allow_illegal = str(form.get("allow_illegal") or "") in ("on", "true", "1")
    return PlayOptions(
        games, seed, bot, opponent_bot, str(form.get("ruleset") or "").strip() or None,
        [str(text) for text in form.getlist("switch") if str(text).strip()],
        [str(module) for module in form.getlist("module") if str(module).strip()],
        max_turns, allow_illegal), precision


def opponents_chosen(form: FormData) -> list[str]:
    """The opponents the form names (`vs`, once or more; none: the other side's base deck)."""
    return [str(value).strip() for value in form.getlist("vs") if str(value).strip()]


def read_plan(config: WebConfig, form: FormData) -> SimulationPlan:
    """The form's simulation, read and checked as `deckbuilder simulate` reads it."""
    options, precision = play_options(form)
    chosen = opponents_chosen(form)
    baseline: str | None = None
    if str(form.get("mode") or "") == "baseline":
        choice = str(form.get("baseline") or "").strip()
        if not choice:
            raise SimulationInputError("a baseline comparison needs a baseline deck",
                                       fix="choose a deck of the same side to compare with")
        baseline = deck_argument(config, choice)
    plan = plan_simulation(
        config.catalog(), deck_argument(config, str(form.get("deck") or "")),
        deck_argument(config, chosen[0]) if chosen else None, baseline, options, precision)
    check_plan(plan)
    return plan


def play_plan(plan: SimulationPlan | GauntletPlan,
              on_result: Callable[[GameResult], None] | None = None) -> dict[str, JsonValue]:
    """Play a simulation or a field on the executor the command would choose; its `--json`
    report, checked with a stronger bot where cheap."""
    from deckbuilder.sim.runs.executors import open_executor

    # The server runs threads: its workers start from a fresh process, not a fork of it.
    with open_executor(default_workers(plan.total if isinstance(plan, GauntletPlan)
                                       else plan.settings.games),
                       start_method="forkserver") as executor:
        if isinstance(plan, GauntletPlan):
            report = dict(run_gauntlet_plan(plan, executor, on_result).report)
            check_gauntlet(plan, report, None, executor)
        else:
            report = simulation_report(plan, executor, on_result)
            check_simulation(plan, report, None, executor)
    # moved card data would reach every job of the server
    if isinstance(plan, SimulationPlan) and planned_sensitivity(plan, report, None)[0]:
        report["notes"] = [*report["notes"], "the sensitivity check runs in `deckbuilder "
                           "simulate`, not on this page"]
    return as_plain_json(report)


# -- the page's choices ----------------------------------------------------------------------
#: How many deck files' headings a server keeps (a folder holds a few hundred at most).
KEPT_HEADINGS = 4096


def _deck_heading(config: WebConfig, path: str) -> tuple[str, str, str] | None:
    """A deck file's name, game and faction (None: it does not read), kept per file version:
    reading hundreds of deck files at each visit made the page slow."""
    from deckbuilder.decks import load_deck

    try:  # a deck is read again only when its time or size changes
        status = os.stat(path)
        key = (path, status.st_mtime_ns, status.st_size)
    except OSError:
        key = (path, -1, -1)
    if key in config.read_decks:
        return config.read_decks[key]
    try:
        loaded = load_deck(path, config.catalog())
        heading: tuple[str, str, str] | None = (loaded.name, loaded.game, loaded.faction)
    except DeckbuilderError:
        heading = None
    if len(config.read_decks) >= KEPT_HEADINGS:
        config.read_decks.clear()
    config.read_decks[key] = heading
    return heading


def deck_choices(config: WebConfig) -> list[dict[str, str]]:
    """Base decks, packaged decks and the deck folder's files (one that does not read is
    offered anyway, so that choosing it shows the command line's one-line error)."""
    from deckbuilder import packaged_decks
    from deckbuilder.decks import FACTION_GAMES

    catalog = config.catalog()
    choices: list[dict[str, str]] = [
        {"value": f"base:{faction}", "label": f"{faction} base deck", "game": game,
         "faction": faction, "group": "Base decks"}
        for faction, game in FACTION_GAMES.items() if catalog.base_deck(game, faction)]

    def described(value: str, path: object, group: str, label: str) -> dict[str, str]:
        name, game, faction = _deck_heading(config, str(path)) or (None, "", "")
        return {"value": value, "label": f"{name} ({label})" if name else f"{label} (unreadable)",
                "game": game, "faction": faction, "group": group}

    for name, path in packaged_decks().items():
        if not name.endswith("-base"):
            choices.append(described(f"packaged:{name}", path, "Example decks", name))
    for name in deck_files(config):
        if name.lower().endswith(".yaml"):
            choices.append(described(f"file:{name}", resolve_deck_path(config, name),
                                     "Deck folder", name))
    return choices


def page_choices(config: WebConfig) -> dict[str, object]:
    from deckbuilder.bots import BOT_NAMES
    from deckbuilder.games import games

    return {
        "decks": deck_choices(config),
        "games": [{"id": name, "title": entry.title, "sides": list(entry.side_names)}
                  for name, entry in games().items()],
        # each game's rulesets, switches and modules as `deckbuilder rules --json` lists them
        "rules": [game_rules(config.catalog(), name) for name in games()],
        "bots": [*BOT_NAMES, *BOT_EXAMPLES],
        "max_games": MAX_GAMES,
    }


# -- the report on the page ------------------------------------------------------------------
def _result_html(report: dict[str, JsonValue], job_id: str) -> str:
    """The results as HTML: the report's charts (the same SVG as `--report`) and tables."""
    from deckbuilder.sim.reports.charts import render_svg, simulate_charts
    from deckbuilder.sim.reports.html_report import counted, interval_text, rate, signed_points
    from deckbuilder.sim.reports.tournament_report import gauntlet_charts

    words = {"report": report, "job_id": job_id, "verdict": verdict_lines(report),
             "rate": rate, "interval_text": interval_text}
    # render_svg escapes every text it draws (names come from files): the SVG is markup
    if _is_field(report):
        field = cast(GauntletReport, report)
        return fragment("simulate_field.html", **words, charts=[
            {"svg": Markup(render_svg(chart)), "caption": chart.caption}
            for chart in gauntlet_charts(field)])
    found = cast(SimulationReport, report)  # a job plays `simulate`
    charts = {chart.name: {"svg": Markup(render_svg(chart)), "caption": chart.caption}
              for chart in simulate_charts(found)}
    return fragment("simulate_result.html", **words, charts=charts, ending_words=ending_words,
                    counted=counted, signed_points=signed_points,
                    card_rows=found["cards"]["deck"][:40])


# -- routes ----------------------------------------------------------------------------------
async def simulate_page(request: Request) -> Response:
    config = config_of(request)
    choices = await asyncio.to_thread(page_choices, config)
    return render(request, "simulate.html", title="Simulate", choices=choices,
                  choices_json=json.dumps(choices))


async def start_simulation(request: Request) -> Response:
    """Check the form; on success a job waits for the page's event stream to start it."""
    config = config_of(request)
    form = await request.form()
    if str(form.get("mode") or "") == "field" or len(opponents_chosen(form)) > 1:
        return await start_field_run(request, config, form)
    plan = await asyncio.to_thread(read_plan, config, form)
    return _started(request, plan.total, plan.side,
                    lambda on_result: play_plan(plan, on_result), plan.warnings)


def _started(request: Request, total: int, seat: int,
             work: Callable[[Callable[[GameResult], None]], dict[str, JsonValue]],
             warnings: Sequence[str]) -> Response:
    """A new job for the page's event stream to start; where that stream is."""
    job = jobs_of(request.app).add(total, seat, work)
    return JSONResponse({"job": job.id, "total": total, "warnings": list(warnings),
                         "events": f"/api/simulate/{job.id}/events"})


async def start_field_run(request: Request, config: WebConfig, form: FormData) -> Response:
    """A deck against a field of opponents (`deckbuilder simulate DECK --vs A --vs B`)."""
    chosen = opponents_chosen(form)
    if not chosen:
        raise SimulationInputError("a field needs its opponents",
                                   fix="choose one or more opponents of the other side")
    options, _ = play_options(form)
    plan = await asyncio.to_thread(
        plan_gauntlet, config.catalog(), deck_argument(config, str(form.get("deck") or "")),
        [opponent_argument(config, choice) for choice in chosen], options, option="opponent")
    return _started(request, plan.total, side_of_deck(plan.deck)[0],  # whose wins it counts
                    lambda on_result: play_plan(plan, on_result), plan.warnings)


def _event(kind: str, data: Mapping[str, object]) -> str:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


def _final_event(job: SimulationJob) -> str:
    if job.state == "done" and job.report is not None:
        return _event("done", {"html": _result_html(job.report, job.id),
                               **job.progress()})
    if job.state == "cancelled":
        return _event("cancelled", job.progress())
    return _event("failed", {"error": job.error or "the simulation failed"})


async def simulation_events(request: Request) -> Response:
    """The job's progress as Server-Sent Events; the stream's end stops the games."""
    jobs = jobs_of(request.app)
    job = _job(request)
    jobs.attach(job)

    async def stream() -> AsyncIterator[str]:
        try:
            yield "retry: 3000\n\n"
            shown = None
            quiet_since = time.monotonic()
            while True:
                job.lease = time.monotonic()
                if job.is_finished:
                    yield _final_event(job)
                    return
                progress = job.progress()
                if progress != shown:
                    shown, quiet_since = progress, time.monotonic()
                    yield _event("progress", progress)
                elif time.monotonic() - quiet_since > HEARTBEAT_SECONDS:
                    quiet_since = time.monotonic()
                    yield ": still playing\n\n"
                await asyncio.sleep(POLL_SECONDS)
        finally:
            jobs.detach(job)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _job(request: Request) -> SimulationJob:
    job = jobs_of(request.app).get(request.path_params["job_id"])
    if job is None:
        raise NoSuchSimulation("no such simulation (it ended, or the server restarted)")
    return job


def _report(request: Request) -> dict[str, JsonValue]:
    job = jobs_of(request.app).get(request.path_params["job_id"])
    if job is None or job.report is None:
        raise NoSuchSimulation("no finished simulation with that id (reports are kept for "
                               "half an hour)")
    return job.report


async def cancel_simulation(request: Request) -> Response:
    job = _job(request)
    jobs_of(request.app).cancel(job)
    return JSONResponse({"job": job.id, "state": job.state})


async def simulation_status(request: Request) -> Response:
    job = _job(request)
    return JSONResponse({"job": job.id, **job.progress(), "error": job.error})


def _is_field(report: Mapping[str, object]) -> bool:
    return "field" in report and "opponents" in report  # a simulation's has no field


async def report_json(request: Request) -> Response:
    """The `--json` report of a finished simulation, as a download."""
    return JSONResponse(_report(request), headers={
        "Content-Disposition": 'attachment; filename="simulation.json"'})


async def report_html(request: Request) -> Response:
    """The same page `--report FILE.html` writes (self-contained, no script)."""
    from deckbuilder.sim.reports.html_report import simulate_html
    from deckbuilder.sim.reports.tournament_report import gauntlet_html

    found = _report(request)
    page = (gauntlet_html(cast(GauntletReport, found)) if _is_field(found)
            else simulate_html(cast(SimulationReport, found)))
    return HTMLResponse(page, headers={
        "Content-Disposition": 'attachment; filename="simulation.html"'})


ROUTES: list[BaseRoute] = [
    Route("/simulate", simulate_page, name="simulate"),
    Route("/api/simulate", start_simulation, methods=["POST"], name="simulate_start"),
    Route("/api/simulate/{job_id:str}", simulation_status, name="simulate_status"),
    Route("/api/simulate/{job_id:str}/events", simulation_events, name="simulate_events"),
    Route("/api/simulate/{job_id:str}/cancel", cancel_simulation, methods=["POST"],
          name="simulate_cancel"),
    Route("/api/simulate/{job_id:str}/report.json", report_json, name="simulate_json"),
    Route("/api/simulate/{job_id:str}/report.html", report_html, name="simulate_html"),
]
