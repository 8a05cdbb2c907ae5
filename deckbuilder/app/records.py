"""A game record's deal, checked once for every face: honest when the seed and salt give
the commitment the friend table showed before the deal, and the game dealt from that seed
replays every recorded step and the ending.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckbuilderError
from deckbuilder.sim.records.seed_commitment import commitment_matches, seed_commitment
from deckbuilder.sim.records.session import replay_record
from deckbuilder.sim.records.transcript import GameRecord, record_line

#: The one line of a deal that checks.
DEAL_CHECKS = "the deal checks: dealt from the committed seed and played as recorded"


class CommitmentError(DeckbuilderError):
    """A commitment given to check a deal against that is not one (64 hex digits)."""


@dataclass(frozen=True)
class DealCheck:
    """Whether a record's deal checks, and why not; `given` False: checked against the
    record's own commitment, which the player should compare with the table's."""

    holds: bool
    reason: str
    commitment: str | None
    given: bool


def read_commitment(text: str) -> str:
    """A commitment as a player copies it from the table (64 hex digits, any case)."""
    commitment = text.strip().lower()
    if len(commitment) != 64 or any(char not in "0123456789abcdef" for char in commitment):
        shown = commitment[:70] if commitment.isprintable() else repr(commitment[:70])
        raise CommitmentError(f"'{shown}' is not a seed commitment",
                              fix="give the 64 hex digits the table showed as its commitment")
    return commitment


def check_deal(record: GameRecord, commitment: str | None = None,
               catalog: Catalog | None = None) -> DealCheck:
    """Whether `record` was dealt from the seed `commitment` binds (the record's own "deal"
    commitment when None) and played as recorded. A `commitment` that is not 64 hex digits
    is a `CommitmentError`."""
    given = commitment is not None
    deal = record.deal
    wanted = read_commitment(commitment) if commitment is not None else None
    if deal is None:
        return DealCheck(False, "the record has no deal (a seed commitment): only the record "
                                "of a table for two people has one", wanted, given)
    wanted = wanted or deal["commitment"]
    if not commitment_matches(record.seed, deal["salt"], wanted):
        made = seed_commitment(record.seed, deal["salt"])
        whose = "the commitment given" if given else "the record's own commitment"
        return DealCheck(False, f"the commitment differs: the record's seed and salt make "
                                f"{made}, not {whose} {wanted}: the seed or the salt was "
                                "changed, or this is another table's record", wanted, given)
    result = replay_record(record, catalog)
    if result.mismatch is not None:
        where = record_line(record, result.step or 0)
        line = "" if where is None else f" at line {where.line}"
        return DealCheck(False, f"the record differs from the game dealt from its seed{line}: "
                                f"{result.mismatch}", wanted, given)
    return DealCheck(True, DEAL_CHECKS, wanted, given)
