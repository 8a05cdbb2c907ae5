"""Reference integrity of card sets: what a schema cannot see, because it spans records and sets
(ids, references, requirements, copies, modules, rule switches). Every problem comes back at
once, each with `file:line:col` and a fix.
"""

from __future__ import annotations

import functools
import typing
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, JsonValue
from pydantic.fields import FieldInfo

from deckbuilder.catalog import RECORD_LISTS, RULE_LISTS, Catalog, LoadedSet
from deckbuilder.errors import DeckbuilderError, Location
from deckbuilder.models import CardSet
from deckbuilder.models.common import CARD_ID_PATTERN
from deckbuilder.yamlio import located, position

Loc = tuple[Any, ...]

#: Id-typed fields that name something other than a record (or define an id).
_NOT_RECORD_REFERENCES = frozenset({"id", "requires", "requires_modules"})
#: Reference fields that must name a battlefield.
_BATTLEFIELD_FIELDS = frozenset({"battlefield", "cost_waived_at", "not_at", "beside",
                                 "unless_reached"})
#: Reference fields that must name a card of a deck (they are played or discarded).
_CARD_FIELDS = frozenset({("Forbid", "cards"), ("ForbidHere", "cards"),
                          ("AddToken", "per_card_in_discard")})


@dataclass(frozen=True)
class Finding:
    """One integrity problem: what, where, and how to fix it."""

    code: str
    message: str
    where: Location
    fix: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message} (fix: {self.fix})"

    def to_dict(self) -> dict[str, JsonValue]:
        return {
            "code": self.code,
            "file": str(self.where.path),
            "line": self.where.line,
            "column": self.where.column,
            "message": self.message,
            "fix": self.fix,
        }


@dataclass(frozen=True)
class Reference:
    loc: Loc
    target: str
    expected_kind: str | None  # "card", "battlefield" or None (any record)


# -- finding references generically -----------------------------------------------------------
def _is_card_id(annotation: object) -> bool:
    if isinstance(annotation, FieldInfo):
        patterns = (getattr(item, "pattern", None) for item in annotation.metadata)
        return CARD_ID_PATTERN in patterns
    return any(_is_card_id(argument) for argument in typing.get_args(annotation))


@functools.cache
def _reference_fields(model: type[BaseModel]) -> dict[str, bool]:
    """Field name -> "holds record ids" for a model (so new vocabulary is checked unasked)."""
    return {
        name: name not in _NOT_RECORD_REFERENCES
        and (_is_card_id(info) or _is_card_id(info.annotation))
        for name, info in model.model_fields.items()
        if name not in ("provenance",)
    }


def _expected_kind(model: type[BaseModel], name: str) -> str | None:
    return "battlefield" if name in _BATTLEFIELD_FIELDS else (
        "card" if (model.__name__, name) in _CARD_FIELDS else None)


def references(value: object, loc: Loc = ()) -> Iterator[Reference]:
    """Every record id that `value` (a model, list of models ...) refers to, with its place."""
    if isinstance(value, BaseModel):
        model = type(value)
        for name, holds_ids in _reference_fields(model).items():
            child = getattr(value, name)
            if not holds_ids:
                yield from references(child, (*loc, name))
            elif isinstance(child, str):
                yield Reference((*loc, name), child, _expected_kind(model, name))
            elif isinstance(child, list):
                for index, item in enumerate(child):
                    yield Reference((*loc, name, index), item, _expected_kind(model, name))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from references(item, (*loc, index))


# -- the checks ---------------------------------------------------------------------------------
class _Checker:
    def __init__(self, loaded: LoadedSet, others: Mapping[str, CardSet]) -> None:
        self.loaded = loaded
        self.card_set = loaded.card_set
        self.others = others
        self.findings: list[Finding] = []
        #: record id -> the other set that defines it
        self.record_holders = self._holders_of(*(list_name for list_name, _ in RECORD_LISTS))

    def add(self, code: str, loc: Loc, message: str, fix: str) -> None:
        where = located(self.loaded.path, self.document(), loc)
        self.findings.append(Finding(code, message, where, fix))

    def document(self) -> Any:
        """The round-trip document (parsed again if the set came from the catalog's cache)."""
        try:
            return self.loaded.document
        except DeckbuilderError:
            return None  # the file changed since: the finding keeps its file, without a line

    def check_ids(self, lists: Sequence[tuple[str, str]], what: str, every: str
                  ) -> dict[str, tuple[str, Loc]]:
        """Ids are global: each once in this set and in no other set (a homebrew module would
        replace the packaged text). `what` names the item ("" for records, whose duplicate
        names the first one's line); returns id -> (kind, loc of its id)."""
        seen: dict[str, tuple[str, Loc]] = {}
        holders = self._holders_of(*(list_name for list_name, _ in lists))
        for list_name, kind in lists:
            for index, item in enumerate(getattr(self.card_set, list_name)):
                loc = (list_name, index, "id")
                if item.id in seen:
                    first = None if what else position(self.document(), seen[item.id][1])
                    at = f" (first at line {first[0]})" if first else ""
                    self.add("duplicate-id", loc, f"{what}id '{item.id}' is used twice in this "
                             f"set{at}", f"give every {every} its own id")
                    continue
                seen[item.id] = (kind, loc)
                if item.id in holders:
                    self.add("id-in-other-set", loc, f"{what}id '{item.id}' is already used in "
                             f"set '{holders[item.id]}'",
                             f"ids are global and never reused: choose another {what}id")
        return seen

    def required_closure(self) -> list[str]:
        """Ids of the sets this one requires, directly or through them (known ones only)."""
        order: list[str] = []
        queue = deque(self.card_set.requires)
        while queue:
            set_id = queue.popleft()
            if set_id in order or set_id == self.card_set.id or set_id not in self.others:
                continue
            order.append(set_id)
            queue.extend(self.others[set_id].requires)
        return order

    def check_requires(self) -> None:
        card_set = self.card_set
        seen: set[str] = set()
        for index, set_id in enumerate(card_set.requires):
            loc = ("requires", index)
            if set_id in seen:
                self.add("duplicate-requirement", loc, f"'{set_id}' is required twice",
                         "list each required set once")
                continue
            seen.add(set_id)
            if set_id == card_set.id:
                self.add("require-cycle", loc, "the set requires itself",
                         "remove its own id from requires")
                continue
            required = self.others.get(set_id)
            if required is None:
                self.add("unknown-requirement", loc,
                         f"requires set '{set_id}', which is neither packaged nor installed",
                         f"install '{set_id}' first (`deckbuilder sets import`), or correct "
                         f"the id; known sets: {', '.join(sorted(self.others)) or 'none'}")
                continue
            if required.game != card_set.game:
                self.add("game-mismatch", loc,
                         f"this is a {card_set.game} set but '{set_id}' is a {required.game} set",
                         "require only sets of the same game, or correct `game`")
            cycle = self._cycle_through(set_id)
            if cycle:
                self.add("require-cycle", loc,
                         f"requirements form a cycle: {' -> '.join([card_set.id, *cycle])}",
                         "a set may not (even indirectly) require itself: remove one link")

    def _cycle_through(self, start: str) -> list[str]:
        """The path start -> ... -> this set, if requirements lead back here."""
        parents: dict[str, str | None] = {start: None}
        queue = deque([start])
        while queue:
            current = queue.popleft()
            for nxt in self.others[current].requires if current in self.others else ():
                if nxt == self.card_set.id:
                    path = [current]
                    while parents[path[-1]] is not None:
                        path.append(parents[path[-1]])  # type: ignore[arg-type]
                    return [*reversed(path), nxt]
                if nxt not in parents:
                    parents[nxt] = current
                    queue.append(nxt)
        return []

    def check_references(self, own: Mapping[str, tuple[str, Loc]], closure: Sequence[str]) -> None:
        reachable: dict[str, tuple[str, str]] = {}  # id -> (kind, set id)
        for set_id in closure:
            for list_name, kind in RECORD_LISTS:
                for record in getattr(self.others[set_id], list_name):
                    reachable.setdefault(record.id, (kind, set_id))
        for list_name in (*(name for name, _ in RECORD_LISTS), "modules"):
            for reference in references(getattr(self.card_set, list_name), (list_name,)):
                self._check_reference(reference, own, reachable)

    def _check_reference(
        self,
        reference: Reference,
        own: Mapping[str, tuple[str, Loc]],
        reachable: Mapping[str, tuple[str, str]],
    ) -> None:
        target = reference.target
        if target in own:
            kind = own[target][0]
        elif target in reachable:
            kind = reachable[target][0]
        else:
            holder = self.record_holders.get(target)
            if holder is not None:
                self.add("reference-not-required", reference.loc,
                         f"'{target}' is in set '{holder}', which this set does not require",
                         f"add '{holder}' to requires")
            else:
                missing = [set_id for set_id in self.card_set.requires
                           if set_id not in self.others and set_id != self.card_set.id]
                maybe = f" (it may be in {', '.join(missing)}, which is not available)" \
                    if missing else ""
                self.add("unknown-reference", reference.loc,
                         f"'{target}' is not a record of this set or of a set it requires{maybe}",
                         "correct the id, or add the set that defines it to requires")
            return
        if reference.expected_kind and kind != reference.expected_kind:
            field_name = next(part for part in reversed(reference.loc) if isinstance(part, str))
            self.add("wrong-kind-reference", reference.loc,
                     f"'{target}' is a {kind}, but `{field_name}` needs a "
                     f"{reference.expected_kind}", f"name a {reference.expected_kind} here")

    def check_copies(self) -> None:
        for index, card in enumerate(self.card_set.cards):
            loc = ("cards", index, "copies")
            if card.unique and card.copies != 1:
                self.add("unique-copies", loc,
                         f"'{card.id}' is unique but has {card.copies} copies",
                         "a unique card has exactly 1 copy")
            elif card.deckable and card.copies == 0:
                self.add("zero-copies", loc,
                         f"'{card.id}' may stand in a deck but has 0 copies in the set",
                         "give the number of copies in the box, or set `deckable: false`")

    def check_modules_and_switches(self, closure: Sequence[str]) -> None:
        for list_name, what in RULE_LISTS:
            self.check_ids([(list_name, what)], f"{what} ", what)
        sets = [self.card_set, *(self.others[set_id] for set_id in closure)]
        modules = {module.id for card_set in sets for module in card_set.modules}
        switches = {switch.id: switch for card_set in sets for switch in card_set.rule_switches}
        for index, module in enumerate(self.card_set.modules):
            for position_, needed in enumerate(module.requires_modules):
                if needed not in modules:
                    self.add("unknown-module", ("modules", index, "requires_modules", position_),
                             f"module '{module.id}' requires unknown module '{needed}'",
                             f"known modules: {', '.join(sorted(modules)) or 'none'}")
        for index, switch in enumerate(self.card_set.rule_switches):
            values = [variant.value for variant in switch.variants]
            if switch.default not in values:
                self.add("unknown-variant", ("rule_switches", index, "default"),
                         f"default '{switch.default}' of rule switch '{switch.id}' is not one "
                         "of its variants", f"use one of: {', '.join(values)}")
        for index, ruleset in enumerate(self.card_set.rulesets):
            for switch_id, value in ruleset.choices.items():
                loc = ("rulesets", index, "choices", switch_id)
                chosen = switches.get(switch_id)
                if chosen is None:
                    self.add("unknown-rule-switch", loc,
                             f"ruleset '{ruleset.id}' sets unknown rule switch '{switch_id}'",
                             f"known switches: {', '.join(sorted(switches)) or 'none'}")
                elif value not in (values := [variant.value for variant in chosen.variants]):
                    self.add("unknown-variant", loc,
                             f"ruleset '{ruleset.id}' chooses '{value}' for '{switch_id}'",
                             f"use one of: {', '.join(values)}")

    def _holders_of(self, *list_names: str) -> dict[str, str]:
        """Id -> the other set that defines it, among the items of these lists of a set."""
        holders: dict[str, str] = {}
        for set_id, other in self.others.items():
            for list_name in list_names:
                for item in getattr(other, list_name):
                    holders.setdefault(item.id, set_id)
        return holders

    def run(self) -> list[Finding]:
        own = self.check_ids(RECORD_LISTS, "", "card, character, battlefield, special and token")
        self.check_requires()
        closure = self.required_closure()
        self.check_references(own, closure)
        self.check_copies()
        self.check_modules_and_switches(closure)
        self.findings.sort(key=lambda f: (f.where.line or 0, f.where.column or 0, f.code))
        return self.findings


def check_set(loaded: LoadedSet, others: Mapping[str, CardSet]) -> list[Finding]:
    """Every integrity problem of one set, judged against the other available sets (never
    its own installed version, so an upgrade may reuse its own ids)."""
    return _Checker(loaded, {k: v for k, v in others.items() if k != loaded.card_set.id}).run()


def check_catalog(catalog: Catalog, only: Sequence[str] | None = None) -> list[Finding]:
    """Integrity findings of every set in a catalog (or only of the sets named in `only`).

    >>> from deckbuilder.catalog import build_catalog
    >>> check_catalog(build_catalog(use_user_data=False))  # the packaged data is consistent
    []
    """
    all_sets = {set_id: loaded.card_set for set_id, loaded in catalog.sets.items()}
    return [finding for set_id, loaded in catalog.sets.items() if only is None or set_id in only
            for finding in check_set(loaded, all_sets)]


def dependents(set_id: str, sets: Mapping[str, CardSet]) -> list[str]:
    """Ids of the sets that require `set_id`, directly or through others."""
    found: list[str] = []
    queue = deque([set_id])
    while queue:
        current = queue.popleft()
        for other_id, other in sets.items():
            if current in other.requires and other_id not in found and other_id != set_id:
                found.append(other_id)
                queue.append(other_id)
    return found
