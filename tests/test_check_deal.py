"""`deckbuilder replay RECORD --check-deal [COMMITMENT]` (issue 34, item 2): a table for two
people shows its seats a commitment to the seed before the deal and reveals the seed and the
salt in the record it offers once ended; the check recomputes the commitment and replays the
record from that seed. A finished (or resigned) table's record passes in one line; a record
whose seed, salt or a step was changed, another table's commitment, and a record without a
deal each fail (exit 1) with their reason; a commitment that is not one is bad input (exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckbuilder.app.records import DEAL_CHECKS
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app as cli_app
from deckbuilder.sim.records.seed_commitment import seed_commitment

TestClient = pytest.importorskip("starlette.testclient").TestClient

from test_record_endings import edited_record, resigned_in_the_app, table_record  # noqa: E402

from deckbuilder.web.app import create_app  # noqa: E402
from deckbuilder.web.config import WebConfig  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
runner = CliRunner()


@pytest.fixture(scope="module")
def catalog() -> Any:
    return build_catalog()


@pytest.fixture(scope="module")
def finished(catalog: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished table's record, as the table offers it."""
    return table_record(catalog, tmp_path_factory.mktemp("finished"), "revolver",
                        "finished").path


def header_of(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text(encoding="utf-8").splitlines()[0]))


def shown_commitment(path: Path) -> str:
    """The commitment the table showed its seats (the record's header keeps it)."""
    deal = header_of(path)["deal"]
    assert deal["commitment"] == seed_commitment(header_of(path)["seed"], deal["salt"])
    return str(deal["commitment"])


def check(path: Path, *commitment: str) -> Any:
    return runner.invoke(cli_app, ["replay", str(path), "--check-deal", *commitment])


def failure(result: Any) -> str:
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("error: ") and "Traceback" not in result.output
    return str(lines[-1])


def test_a_finished_tables_record_checks_against_the_commitment_it_showed(
        finished: Path) -> None:
    passed = check(finished, shown_commitment(finished).upper())  # copied in any case
    assert passed.exit_code == 0, passed.output
    assert passed.output.strip() == DEAL_CHECKS
    assert DEAL_CHECKS == ("the deal checks: dealt from the committed seed and played as "
                           "recorded")


def test_the_commitment_the_app_showed_checks_the_record_it_offers(
        tmp_path: Path, deck_folder: Path) -> None:
    client = TestClient(create_app(WebConfig(deck_folder=deck_folder)),
                        base_url="http://localhost")
    _, commitment, record = resigned_in_the_app(client, tmp_path)
    passed = check(record, commitment)
    assert passed.exit_code == 0, passed.output
    assert passed.output.strip() == DEAL_CHECKS


def test_without_a_commitment_the_records_own_is_used_and_shown_to_compare(
        finished: Path) -> None:
    passed = check(finished)
    assert passed.exit_code == 0, passed.output
    note, verdict = passed.output.strip().splitlines()
    assert shown_commitment(finished) in note and "compare it with the commitment the " \
                                                  "table showed" in note
    assert verdict == DEAL_CHECKS
    summary = runner.invoke(cli_app, ["replay", str(finished), "--check-deal", "--json"])
    data = json.loads(summary.output)
    assert summary.exit_code == 0 and data["deal_checks"] and not data["commitment_given"]


def test_a_resigned_tables_record_checks_up_to_where_it_stopped(
        catalog: Any, tmp_path: Path) -> None:
    resigned = table_record(catalog, tmp_path, "revolver2", "resigned").path
    passed = check(resigned, shown_commitment(resigned))
    assert passed.exit_code == 0, passed.output
    assert passed.output.strip() == DEAL_CHECKS


def test_a_changed_seed_fails_the_commitment(finished: Path) -> None:
    shown = shown_commitment(finished)
    tampered = edited_record(finished, 1,
                             lambda header: header.update(seed=header["seed"] + 1))
    said = failure(check(tampered, shown))
    assert "the commitment differs" in said and f"not the commitment given {shown}" in said
    assert "the seed or the salt was changed" in said
    assert "the commitment differs" in failure(check(tampered))  # against its own, too


def test_a_changed_salt_fails_the_commitment(finished: Path) -> None:
    tampered = edited_record(finished, 1,
                             lambda header: header["deal"].update(salt="00" * 16))
    said = failure(check(tampered, shown_commitment(finished)))
    assert "the commitment differs" in said


def test_a_changed_step_fails_the_replay_at_that_step(finished: Path) -> None:
    step = 12

    def other_action(row: dict[str, Any]) -> None:
        assert row["i"] == step
        row["action"] += 1000

    tampered = edited_record(finished, step + 2, other_action)
    said = failure(check(tampered, shown_commitment(finished)))
    assert f"the record differs from the game dealt from its seed at line {step + 2}: " \
           f"step {step}:" in said


def test_another_tables_commitment_fails(finished: Path) -> None:
    other = seed_commitment(12345, "ab" * 16)
    said = failure(check(finished, other))
    assert f"not the commitment given {other}" in said


def test_a_record_without_a_deal_fails(tmp_path: Path) -> None:
    record = tmp_path / "bots.jsonl"
    played = runner.invoke(cli_app, ["play", "--seed", "3", "--quiet", "--record",
                                     str(record)])
    assert played.exit_code == 0, played.output
    assert "the record has no deal" in failure(check(record))


def test_a_commitment_that_is_not_one_is_bad_input(finished: Path) -> None:
    refused = check(finished, "not-a-hash")
    assert refused.exit_code == 2 and "is not a seed commitment" in refused.output
    stray = runner.invoke(cli_app, ["replay", str(finished), shown_commitment(finished)])
    assert stray.exit_code == 2 and "read only with --check-deal" in stray.output
