"""The friend tables of one server: in memory while they are played, and on disk as they go.

Each table is one file, `<tables folder>/<table id>.jsonl`, that only grows:

    {"table": "deckbuilder-friend-table", "format": 2, "id": ..., "created": ...,
     "creator": "colty", "heading": ..., "deck_names": {...},
     "tokens": {"colty": sha256, "spectator": sha256}, "invitations": {"mcready": sha256},
     "deal": {"commitment": sha256, "salt": hex}, "sealed_seed": hex,
     "game": <the game record's header without its seed: game, decks, ruleset, modules ...>}
    {"joined": "colty", "at": ...}
    {"joined": "mcready", "at": ..., "token": sha256}     (the invitation taken: its seat)
    {"client": sha256, "seat": "mcready", "at": ..., "notice": "..."}    (a new client)
    {"i": 0, "player": "colty", "action": 3, "text": "play Gatling Gun"}
    ...
    {"end": "finished" | "resigned" | "abandoned", "winner": ..., "by": ..., "at": ...,
     "seed": ..., "seed_salt": ...}

A seat's link is the only thing that lets a person act for it: the friend's is made when the
invitation is first taken and told only to its taker (the invitation is spent: `SeatTaken`).
The seed stays sealed (`sealing`) until the end line reveals it. Format 1 files (every role's
token in `tokens`, the seed in `game`) are still played. A move is one synced line (a crash
loses at most that move); a restarted server replays a table when a link first opens it.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.sim.records.seed_commitment import new_salt, seed_commitment
from deckbuilder.sim.records.session import HUMAN, GameSession
from deckbuilder.sim.records.transcript import GameRecord, Step, add_step, play_steps
from deckbuilder.web.friends.lifespan import (
    DAY_SECONDS,
    ENDED_KEPT,
    RETENTION_DAYS,
    TABLES_PER_CLIENT,
    LinkFolder,
    client_key,
    duration_words,
    expired_files,
    mark_ended,
)
from deckbuilder.web.friends.sealing import SealError, ServerKey, key_file_for
from deckbuilder.web.friends.tokens import looks_like_token, new_token, token_hash
from deckbuilder.web.kept import Kept
from deckbuilder.writing import append_line, atomic_write_text, whole_lines

TABLE_KIND = "deckbuilder-friend-table"
TABLE_FORMAT = 2
#: The formats this version reads: 1 (before seat secrets and sealed seeds) and its own.
READABLE_FORMATS = (1, 2)
SPECTATOR = "spectator"
#: Both seats away this long ends a table (`WebConfig.table_idle_seconds` overrides it).
IDLE_SECONDS = 30 * 60.0
#: A seat whose page listened or asked within this many seconds is at the table.
PRESENT_SECONDS = 25.0
#: Unfinished tables a server keeps at once: a new one beyond is refused with one line.
MOST_OPEN_TABLES = 200
#: A table's file is read only up to this size (a long game is well under 1 MB).
MOST_TABLE_BYTES = 8 * 1024 * 1024


class FriendTableError(DeckbuilderError):
    """A request a friend table refuses; `status` is the HTTP status it is answered with."""

    status = 400


class NoSuchTable(FriendTableError):
    status = 404


class NotYourSeat(FriendTableError):
    """A link acting for a seat that is not its own (or a spectator's link acting at all)."""

    status = 403


class StaleStep(FriendTableError):
    """An action answering a decision already answered (a second click, an old view)."""

    status = 409


class TableOver(FriendTableError):
    status = 409


class InvitationLink(FriendTableError):
    """An invitation used as a seat's link; `watch`: the spectator's token (None: format 1)."""

    status = 409

    def __init__(self, message: str, fix: str, watch: str | None) -> None:
        super().__init__(message, fix=fix)
        self.watch = watch


class SeatTaken(InvitationLink):
    """An invitation already exchanged for its seat's secret: the seat is someone's."""


@dataclass
class FriendTable:
    """One table: its file's lines, the game (None until replayed), who joined, how it ended."""

    id: str
    path: Path
    header: dict[str, Any]
    lines: list[str]
    session: Any = None  # GameSession, once built or replayed
    joined: set[str] = field(default_factory=set)
    ended: dict[str, Any] | None = None
    last_seen: dict[str, float] = field(default_factory=dict)
    #: The seed, once known here (drawn, unsealed, or read from the end line).
    seed: int | None = None
    #: The seats' secrets given for an invitation: their hash -> the seat.
    seat_secrets: dict[str, str] = field(default_factory=dict)
    #: By seat, the hashes of the clients that acted for it; the notices of new ones.
    clients: dict[str, set[str]] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    broken: str | None = None
    #: The client that made the table (`lifespan.client_key`), kept in memory only.
    client: str | None = None
    #: When an ended table read back was last asked for (`TableStore.ended_tables`).
    last_used: float = 0.0
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    @property
    def sides(self) -> list[str]:
        return list(self.header["game"]["decks"])

    @property
    def version(self) -> int:
        """Grows with every change (a line of the file), after a restart too: a stream's cue."""
        return len(self.lines)

    @property
    def step(self) -> int:
        """The number of actions taken: the step the next action answers."""
        return len(self.session.record.steps) if self.session is not None else 0

    def present(self, role: str, now: float) -> bool:
        return now - self.last_seen.get(role, 0.0) < PRESENT_SECONDS

    @property
    def invited(self) -> str | None:
        """The seat an invitation is out for (None at a format 1 table)."""
        return next(iter(self.header.get("invitations") or {}), None)

    def is_invitation(self, token: str) -> bool:
        return token_hash(token) in (self.header.get("invitations") or {}).values()

    @property
    def deal(self) -> dict[str, str] | None:
        """The seed's commitment and salt (None at a format 1 table)."""
        deal = self.header.get("deal")
        return dict(deal) if isinstance(deal, dict) else None

    def revealed(self) -> dict[str, object]:
        """The seed and its salt, once told: in the end line and the ended states."""
        if self.seed is None:
            return {}
        return {"seed": self.seed, "seed_salt": (self.deal or {}).get("salt")}

    def read_row(self, row: dict[str, object]) -> None:
        """Take in one line of the table's file after its header."""
        if "joined" in row:
            self.joined.add(str(row["joined"]))
            if "token" in row:
                self.seat_secrets[str(row["token"])] = str(row["joined"])
        if "client" in row:
            self.clients.setdefault(str(row["seat"]), set()).add(str(row["client"]))
            if row.get("notice"):
                self.notices.append(str(row["notice"]))
        if "end" in row:
            self.ended = row
            if isinstance(seed := row.get("seed"), int):
                self.seed = seed


def _links_of(table: FriendTable) -> dict[str, tuple[str, str]]:
    """Every link of the table: its token's hash -> (table id, role)."""
    links = {str(digest): (table.id, str(role))
             for role, digest in [*table.header["tokens"].items(),
                                  *(table.header.get("invitations") or {}).items()]}
    links.update({digest: (table.id, role) for digest, role in table.seat_secrets.items()})
    return links


@dataclass(eq=False)
class TableStore:
    """The tables of a server: created, found by link, played, ended, and written down."""

    folder: Path
    catalog: Callable[[], Catalog]
    idle_seconds: float = IDLE_SECONDS
    clock: Callable[[], float] = time.time
    retention_seconds: float = RETENTION_DAYS * DAY_SECONDS
    tables_per_client: int = TABLES_PER_CLIENT

    def __post_init__(self) -> None:
        self.links = LinkFolder(self.folder / "links")
        self.ended_tables: Kept[FriendTable] = Kept(ENDED_KEPT, math.inf)
        self.key = ServerKey(key_file_for(self.folder))
        self._tables: dict[str, FriendTable] = {}
        self._by_token: dict[str, tuple[str, str]] = {}  # sha256 -> (table id, role)
        self._lock = threading.Lock()
        self.unreadable: list[str] = []  # files that are no table (named in the tests)
        self._creating = threading.Lock()  # a client's count and its new table, at once
        self._sweeping = threading.Lock()
        self._not_tables: set[str] = set()  # old files the sweep found no ended table in
        self._read_folder()
        self.sweep()

    # -- the folder -------------------------------------------------------------------------
    def _read_folder(self) -> None:
        """Index the tables of earlier runs; an ended one's links go to disk (`_let_go`)."""
        if not self.folder.is_dir():
            return
        for path in sorted(self.folder.glob("*.jsonl")):
            try:
                table = self._read_file(path)
            except (OSError, ValueError, KeyError, TypeError) as error:
                self.unreadable.append(f"{path.name}: {error}")
                continue
            self._index(table)
            if table.ended is not None:
                self._let_go(table)

    def _read_file(self, path: Path) -> FriendTable:
        if path.stat().st_size > MOST_TABLE_BYTES:
            raise ValueError("larger than a table's file can be")
        text = path.read_text(encoding="utf-8")
        lines = whole_lines(text)
        if len(lines) != len(text.splitlines()):  # a move cut short by a crash: not played
            atomic_write_text(path, "".join(lines))
        header = json.loads(lines[0])
        if header.get("table") != TABLE_KIND or header.get("format") not in READABLE_FORMATS:
            raise ValueError("not a friend table of this version")
        if not all(isinstance(header.get(key, {}), dict) for key in ("invitations", "deal")) \
                or not all(isinstance(header[key], dict) for key in ("tokens", "game")):
            raise ValueError("the header is not a table's")
        table = FriendTable(str(header["id"]), path, header, lines)
        if header["format"] == 1:  # the seed in plain text, as format 1 kept it
            table.seed = int(header["game"]["seed"])
        for line in lines[1:]:
            table.read_row(json.loads(line))
        seen = path.stat().st_mtime  # the last thing that happened at the table
        table.last_seen = {role: seen for role in (*table.sides, SPECTATOR)}
        return table

    def _index(self, table: FriendTable) -> None:
        with self._lock:
            self._tables[table.id] = table
            self._by_token.update(_links_of(table))

    def _write(self, table: FriendTable, row: dict[str, object]) -> None:
        """Append `row` to the table's file, synced, and take it in as a restart reads it."""
        line = json.dumps(row, ensure_ascii=False) + "\n"
        append_line(table.path, line)
        table.lines.append(line)
        table.read_row(row)

    # -- making and finding ------------------------------------------------------------------
    def create(self, session: GameSession, creator: str, heading: str, deck_names: dict[str, str],
               client: str | None = None) -> tuple[FriendTable, dict[str, str]]:
        """A new table for `session` made by `client` (its address); its links' tokens."""
        with self._creating:  # counted and made at once: a burst of requests counts too
            self._refuse_if_full(client_key(client))
            table_id = new_token()[:16].replace("-", "x").replace("_", "y")
            now = self.clock()
            header, tokens = self._new_header(session, table_id, creator)
            header.update(created=now, heading=heading, deck_names=deck_names)
            table = FriendTable(table_id, self.folder / f"{table_id}.jsonl", header,
                                [json.dumps(header, ensure_ascii=False) + "\n"], session,
                                last_seen={role: now for role in (*session.names, SPECTATOR)},
                                seed=session.record.seed, client=client_key(client))
            atomic_write_text(table.path, table.lines[0])
            self._write(table, {"joined": creator, "at": now})
            self._index(table)
            return table, tokens

    def _refuse_if_full(self, client: str | None) -> None:
        """Refuse a table beyond the open ones a server, or a client, may keep."""
        with self._lock:
            open_tables = [table for table in self._tables.values() if table.ended is None]
        if len(open_tables) >= MOST_OPEN_TABLES:
            raise FriendTableError(f"this server already keeps {len(open_tables)} unfinished "
                                   "tables", fix="finish or resign one of them first")
        theirs = sum(1 for table in open_tables if client is not None and table.client == client)
        if theirs >= self.tables_per_client:
            raise FriendTableError(
                f"you already have {theirs} unfinished table{'' if theirs == 1 else 's'} on "
                f"this server (at most {self.tables_per_client} each)",
                fix="finish or resign one of them, or leave it: a table both seats left "
                    f"ends after {duration_words(self.idle_seconds)}")

    def _new_header(self, session: GameSession, table_id: str, creator: str
                    ) -> tuple[dict[str, object], dict[str, str]]:
        """A new table's header and its links' tokens: the creator's seat (random), the
        invitation and the spectator's (derived from the key); the seed sealed."""
        sides = session.names
        friend = next(side for side in sides if side != creator)
        seed, salt = session.record.seed, new_salt()
        deal = {"commitment": seed_commitment(seed, salt), "salt": salt}
        session.record.deal = deal
        made = {creator: new_token(),
                friend: self.key.derived_token("invitation", table_id, create=True),
                SPECTATOR: self.key.derived_token("spectator", table_id)}
        tokens = {role: made[role] for role in (*sides, SPECTATOR)}  # in seat order
        game = {key: value for key, value in session.record.header().items()
                if key not in ("seed", "deal")}
        header = {"table": TABLE_KIND, "format": TABLE_FORMAT, "id": table_id,
                  "creator": creator,
                  "tokens": {role: token_hash(tokens[role]) for role in (creator, SPECTATOR)},
                  "invitations": {friend: token_hash(tokens[friend])},
                  "deal": deal, "sealed_seed": self.key.seal(seed, salt), "game": game}
        return header, tokens

    def derived_token(self, table: FriendTable, purpose: str) -> str | None:
        """The table's "invitation" or "spectator" token made again from the server's key;
        None at a format 1 table or with another key."""
        try:
            token = self.key.derived_token(purpose, table.id)
        except SealError:
            return None
        return token if token_hash(token) in _links_of(table) else None

    def invitation_refusal(self, table: FriendTable, role: str) -> InvitationLink:
        """What an invitation is answered with where a seat's link belongs."""
        watch = self.derived_token(table, "spectator")
        if role not in table.joined and table.ended is not None:
            return SeatTaken(f"this table ended before the invitation to play {role} was "
                             f"taken ({_ended_words(table.ended)})", fix="watch how it "
                             "ended at the spectator's link, or ask for a new table",
                             watch=watch)
        if role in table.joined:
            return SeatTaken(f"this seat is taken: the invitation to play {role} has been "
                             "used", fix="watch the table at the spectator's link, or ask "
                             "for a new table", watch=watch)
        return InvitationLink(f"this link is an invitation to play {role}: take the seat "
                              "first", fix="open the link in a browser and press 'Take the "
                              "seat', or POST /api/tables/TOKEN/join", watch=watch)

    def find(self, token: str, invitation: bool = False) -> tuple[FriendTable, str]:
        """The table and role a link names, its game replayed; an invitation is refused
        unless `invitation` (`take` asks)."""
        table, found = self._located(token)
        with table.lock:
            if table.session is None and table.broken is None:
                self._replay(table)
            if table.broken is not None:
                raise FriendTableError(f"this table cannot be restored: {table.broken}",
                                       Location(table.path), "start a new table")
            self._end_if_abandoned(table)
        if not invitation and table.is_invitation(token):
            raise self.invitation_refusal(table, found[1])
        return table, found[1]

    def _located(self, token: str) -> tuple[FriendTable, tuple[str, ...]]:
        """The table a link names, and the link's place (table id, role); an ended table is
        read back from its file (`lifespan`)."""
        digest = token_hash(token) if looks_like_token(token) else ""
        with self._lock:
            known = self._by_token.get(digest)
            table = self._tables.get(known[0]) if known is not None else None
        if table is not None and known is not None:
            return table, known
        found = self.links.place(digest) if digest else None
        table = self._read_ended(found[0]) if found is not None else None
        if table is None or found is None:
            raise NoSuchTable("no table has this link (a table is removed "
                              f"{duration_words(self.retention_seconds)} after it ends)",
                              fix="ask for the link again, or start a new table at /friends")
        return table, found

    def _read_ended(self, table_id: str) -> FriendTable | None:
        """An ended table read back from its file (the last few kept); None once it is gone."""
        table = self.ended_tables.get(table_id)
        if table is None and table_id.isalnum():
            try:
                table = self._read_file(self.folder / f"{table_id}.jsonl")
            except (OSError, ValueError, KeyError, TypeError):
                return None
            if table.ended is None:  # open, yet not in memory: no table of this server's
                return None
            self.ended_tables.put(table)
        return table

    def tables(self) -> list[FriendTable]:
        """The open tables (a copy: ending one changes the store)."""
        with self._lock:
            return list(self._tables.values())

    def _replay(self, table: FriendTable) -> None:
        """Set the game up from the header and apply its actions (an action a rules change
        reads differently leaves the table broken)."""
        game = table.header["game"]
        try:
            if table.seed is None:  # sealed in the file: opened with the server's key
                deal = table.header["deal"]
                table.seed = self.key.unseal(str(table.header["sealed_seed"]), deal["salt"],
                                             deal["commitment"])
            session = GameSession([game["decks"][side] for side in table.sides], table.seed,
                                  [HUMAN, HUMAN], game["ruleset"], self.catalog(),
                                  game=game["game"], max_turns=game["max_turns"],
                                  switches=game.get("switches") or {},
                                  modules=game.get("modules") or (), viewer=None)
            stopped = play_steps(_steps_of(table), session.names, lambda: session.state,
                                 lambda step: session.act(step.action, step.player))
        except (DeckbuilderError, ValueError, KeyError, TypeError) as error:
            table.broken = str(error)
            return
        if stopped is not None:
            table.broken = str(stopped.mismatch)
            return
        session.record.deal = table.deal
        table.session = session

    # -- playing ----------------------------------------------------------------------------
    def touch(self, table: FriendTable, role: str) -> None:
        table.last_seen[role] = self.clock()

    def take(self, token: str, client: str = "") -> tuple[FriendTable, str, str | None]:
        """The seat a link sits at, and its new secret when the link was an invitation
        (told to this caller only: the invitation is spent)."""
        table, role = self.find(token, invitation=True)
        if not table.is_invitation(token):
            self.join(table, role)
            return table, role, None
        with table.lock:
            if role in table.joined or table.ended is not None:
                raise self.invitation_refusal(table, role)
            secret = new_token()
            self.touch(table, role)
            self._write(table, {"joined": role, "at": self.clock(), "token": token_hash(secret)})
            self._index(table)
            self._note_client(table, role, client, "")
        return table, role, secret

    def _note_client(self, table: FriendTable, role: str, client: str, what: str) -> None:
        """Remember the client acting for `role`; a new one after its first is told to both
        seats. `what` is the act in words."""
        digest = token_hash(client)
        known = table.clients.setdefault(role, set())
        if digest in known:
            return
        row: dict[str, object] = {"client": digest, "seat": role, "at": self.clock()}
        if known:
            row["notice"] = (f"{what}: {role} acted from a device or browser that had not "
                             f"played this seat before ({len(known) + 1} so far); if that "
                             f"was not {role}, someone else has {role}'s seat link")
        self._write(table, row)

    def join(self, table: FriendTable, role: str) -> bool:
        """Mark a seat as taken (its link opened once); True the first time."""
        with table.lock:
            self.touch(table, role)
            if role == SPECTATOR or role in table.joined or table.ended is not None:
                return False
            self._write(table, {"joined": role, "at": self.clock()})
            return True

    def act(self, table: FriendTable, role: str, step: object, action: object,
            client: str = "") -> bool:
        """The seat's answer to the decision of `step`: True when it moved the game, False
        for a repeat of the answer already given (a second click)."""
        with table.lock:
            self._seat_may(table, role, "act")
            asked = _whole_number(step, "step", "send the step the view showed "
                                                "(\"step\" in the state)")
            chosen = _whole_number(action, "action", "send one of the view's choices")
            session = table.session
            current = table.step
            if asked < current:
                done = session.record.steps[asked]
                if done.player == role and done.action == chosen:
                    return False  # the same answer again: already taken
                raise StaleStep(f"step {asked} was already answered ({done.player}: "
                                f"{done.text}); the table is at step {current} now",
                                fix="act on the state sent with this answer")
            if asked > current:
                raise StaleStep(f"step {asked} has not come yet; the table is at step "
                                f"{current}", fix="act on the state sent with this answer")
            mover = session.to_move()
            if mover is None or session.names[mover] != role:
                waiting = "nobody" if mover is None else session.names[mover]
                raise NotYourSeat(f"it is {waiting}'s decision: this link plays {role}",
                                  fix="wait for your turn (the page updates itself)")
            session.act(chosen, role)
            done = session.record.steps[-1]
            self._note_client(table, role, client, f"step {done.index}")
            self._write(table, {"i": done.index, "player": done.player,
                                "action": done.action, "text": done.text})
            if session.is_over():
                self._end(table, "finished", session.record.winner, None)
            return True

    def resign(self, table: FriendTable, role: str, client: str = "") -> None:
        """The seat gives the game up: the other side wins."""
        with table.lock:
            self._seat_may(table, role, "resign")
            winner = next(side for side in table.sides if side != role)
            self._note_client(table, role, client, f"the resignation at step {table.step}")
            self._end(table, "resigned", winner, role)

    def _seat_may(self, table: FriendTable, role: str, verb: str) -> None:
        """A seat's link touches the table; a spectator's, or any once it ended, may not `verb`."""
        self.touch(table, role)
        if role == SPECTATOR:
            raise NotYourSeat(f"a spectator's link cannot {verb}", fix="open a seat's link to play")
        if table.ended is not None:
            raise TableOver(f"the table has already ended ({_ended_words(table.ended)})",
                            fix="start a new table at /friends")

    def _end(self, table: FriendTable, reason: str, winner: str | None,
             by: str | None, why: str | None = None) -> None:
        """Write the end line, and let the table go."""
        now = self.clock()
        row: dict[str, object] = {"end": reason, "winner": winner, "by": by, "at": now}
        if why is not None:
            row["why"] = why
        if table.session is not None:
            row["step"] = table.step
            row["turns"] = table.session.state.turn
            row["termination"] = table.session.record.termination
        row.update(table.revealed())  # the seed and salt: the deal can be checked now
        self._write(table, row)
        mark_ended(table.path, now)
        self._let_go(table)

    def _let_go(self, table: FriendTable) -> None:
        """An ended table leaves memory, its links written to disk first (so a link is never
        unknown meanwhile); a request that holds the table still answers from it."""
        with self._lock:
            links = {digest: place for digest, place in self._by_token.items()
                     if place[0] == table.id}
        for digest, place in links.items():
            self.links.remember(digest, place)
        with self._lock:
            for digest in links:
                self._by_token.pop(digest, None)
            self._tables.pop(table.id, None)

    def _end_if_abandoned(self, table: FriendTable) -> None:
        """Both seats away for `idle_seconds`, or the invitation not taken in that time:
        the table ends (nobody wins); one not replayed yet is, to reveal its seed."""
        if table.ended is not None:
            return
        now = self.clock()
        created = float(table.header.get("created") or now)
        if all(now - table.last_seen.get(side, 0.0) > self.idle_seconds for side in table.sides):
            why = "both players were away too long"
        elif now - created > self.idle_seconds and any(
                side not in table.joined and table.last_seen.get(side, 0.0) <= created
                for side in table.sides):
            why = f"nobody took the invitation within {duration_words(self.idle_seconds)}"
        else:
            return
        if table.session is None and table.broken is None:
            self._replay(table)
        self._end(table, "abandoned", None, None, why)

    def sweep(self) -> None:
        """End the tables their seats left and delete those ended beyond the retention (one
        sweep at a time: another request skips it)."""
        if not self._sweeping.acquire(blocking=False):
            return
        try:
            for table in self.tables():
                with table.lock:
                    self._end_if_abandoned(table)
            cutoff = self.clock() - self.retention_seconds
            open_ids = {table.id for table in self.tables()}
            for path in expired_files(self.folder, open_ids, cutoff):
                if path.name in self._not_tables:
                    continue
                try:
                    ended = self._read_file(path)
                except (OSError, ValueError, KeyError, TypeError):
                    self._not_tables.add(path.name)  # not ours to delete
                    continue
                if ended.ended is not None:
                    self.links.forget(_links_of(ended))
                    path.unlink(missing_ok=True)
        finally:
            self._sweeping.release()


def _steps_of(table: FriendTable) -> list[Step]:
    """The actions of a table's file, read as a record's (a line out of order breaks it)."""
    steps: list[Step] = []
    for number, line in enumerate(table.lines[1:], start=2):
        row = json.loads(line)
        if "i" in row:
            add_step(steps, row, Location(table.path, number))
    return steps


def _whole_number(value: object, name: str, fix: str) -> int:
    if isinstance(value, bool) or value is None:
        raise FriendTableError(f"the request names no {name}", fix=fix)
    try:
        number = int(str(value).strip())
    except ValueError:
        raise FriendTableError(f"{name} '{str(value)[:20]}' is not a number", fix=fix) from None
    if not 0 <= number < 10**9:
        raise FriendTableError(f"{name} {number} is out of range", fix=fix)
    return number


def _ended_words(ended: Mapping[str, object]) -> str:
    reason = ended.get("end")
    if reason == "resigned":
        return f"{ended.get('by')} resigned"
    if reason == "abandoned":
        return str(ended.get("why") or "both players left")
    return "the game is over"


def ended_record(table: FriendTable) -> GameRecord | None:
    """The table's one game record once it has ended (None before); a resignation or a
    time-out is its ending (`sim.records.transcript.TABLE_ENDINGS`)."""
    if table.ended is None or table.session is None:
        return None
    session = table.session
    if session.is_over():
        return session.record
    ended = table.ended
    return replace(session.record, winner=ended.get("winner"),
                   termination=str(ended.get("end")), turns=int(session.state.turn))
