"""YAML in and out: positions, limits, every problem of a validation, atomic writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from deckbuilder.errors import DataFileError
from deckbuilder.models import CardSet, Deck
from deckbuilder.models.effects import STEP_NAMES
from deckbuilder.yamlio import (
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    dump_yaml,
    load_model,
    load_yaml,
    parse_yaml,
    position,
    read_text,
    to_plain,
    validation_problems,
    write_yaml,
)

BAD = Path(__file__).parent / "fixtures" / "bad"
SET_HEAD = 'id: test-set\nname: Test\nversion: "1.0"\ngame: revolver\nkind: homebrew\n'


def error_of(text: str, tmp_path: Path, model: type = CardSet) -> DataFileError:
    path = tmp_path / "file.yaml"
    path.write_text(text)
    with pytest.raises(DataFileError) as error:
        load_model(path, model)
    return error.value


def test_positions_point_at_the_key_or_item() -> None:
    document = parse_yaml("a:\n  b:\n    - x\n    - y: 1\n", Path("f"))
    assert position(document, ["a"]) == (1, 1)
    assert position(document, ["a", "b", 1]) == (4, 7)
    assert position(document, ["a", "b", 1, "y"]) == (4, 7)
    assert position(document, ["a", "missing", 3]) == (1, 1)  # the deepest known place


def test_position_of_nodes_added_in_memory_falls_back_to_their_parent() -> None:
    from ruamel.yaml.comments import CommentedMap

    document = parse_yaml("a:\n  b: 1\n", Path("f"))
    document["a"]["new"] = CommentedMap([("c", 1)])
    assert position(document, ["a", "new", "c"]) == (1, 1)
    assert position(CommentedMap([("x", 1)]), ["x"]) is None


@pytest.mark.parametrize(
    ("fixture", "line", "column", "message"),
    [
        ("broken-yaml.yaml", 3, 8, "invalid YAML"),
        ("tabs.yaml", 4, 1, "tab character"),
        ("duplicate-keys.yaml", 3, 1, 'duplicate key "name"'),
        ("empty.yaml", 1, 1, "file is empty"),
        ("alias-bomb.yaml", None, None, "expands to more than"),
        ("too-deep.yaml", 1, MAX_DEPTH + 4, f"more than {MAX_DEPTH} levels"),
        ("not-utf8.yaml", 2, 10, "not UTF-8"),
        ("top-level-list.yaml", 1, 1, "found a list"),
    ],
)
def test_unreadable_files_name_the_place(
    fixture: str, line: int | None, column: int | None, message: str
) -> None:
    with pytest.raises(DataFileError) as error:
        load_model(BAD / fixture, CardSet)
    assert message in error.value.message
    assert error.value.fix
    if line is not None:
        assert (error.value.where.line, error.value.where.column) == (line, column)
    else:
        assert error.value.where.line is not None


def test_many_aliases_are_refused(tmp_path: Path) -> None:
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"
    assert f"more than {MAX_ALIASES} YAML aliases" in error_of(text, tmp_path).message


def test_a_bomb_under_the_alias_limit_is_refused_quickly(tmp_path: Path) -> None:
    """45 aliases, three per level: 14 million values once expanded."""
    lines = ["a0: &a0 [x, x, x]"] + [
        f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 16)
    ]
    assert "expands to more than" in error_of("\n".join(lines) + "\n", tmp_path).message


def test_a_few_aliases_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "aliases.yaml"
    path.write_text("base: &base {x: 1}\ncopy: *base\n")
    assert to_plain(load_yaml(path)) == {"base": {"x": 1}, "copy": {"x": 1}}


def test_files_over_the_size_limit_are_not_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_bytes(b"# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    with pytest.raises(DataFileError, match="the limit is"):
        read_text(path)


@pytest.mark.parametrize("kind", ["missing", "directory", "binary"])
def test_what_is_not_a_text_file(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "thing.yaml"
    if kind == "directory":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(DataFileError) as error:
        read_text(path)
    assert error.value.where.path == path and error.value.fix


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes("\ufeffname: x\n".encode())
    assert read_text(path) == "name: x\n"


def test_every_schema_problem_is_reported_once_at_its_place(tmp_path: Path) -> None:
    text = (SET_HEAD + "cards:\n  - id: test-a\n    name: A\n    faction: colty\n"
            "    category: action\n    play: one-shot\n    copies: -1\n    cost: lots\n"
            "    colour: red\n    effect:\n      - do: kill\n        count: many\n")
    document = parse_yaml(text, Path("f.yaml"))
    with pytest.raises(ValidationError) as error:
        CardSet.model_validate(to_plain(document))
    problems = validation_problems(error.value, document, Path("f.yaml"))
    places = [(p.where.line, p.where.column) for p in problems]
    assert places == [(12, 5), (13, 5), (14, 5), (17, 9)]
    # count: an integer or 'all': the two alternatives are one problem at one place
    assert "valid integer" in problems[-1].message and "'all'" in problems[-1].message
    assert problems[-1].message.startswith("cards.0.effect.0.count:")


def test_the_first_problem_says_how_many_more(tmp_path: Path) -> None:
    error = error_of(SET_HEAD + "colour: red\nflavour: sweet\n", tmp_path)
    assert error.message == "unknown field 'colour' (and 1 more problem)"
    assert (error.where.line, error.where.column) == (6, 1)


def test_unknown_step_lists_the_known_steps(tmp_path: Path) -> None:
    error = error_of(SET_HEAD + "cards:\n  - id: test-a\n    name: A\n    faction: colty\n"
                     "    category: action\n    play: one-shot\n    effect:\n"
                     "      - do: teleport\n", tmp_path)
    assert "unknown effect step 'teleport'" in error.message
    assert error.fix is not None and all(name in error.fix for name in STEP_NAMES)
    assert (error.where.line, error.where.column) == (13, 9)


def test_a_step_without_do_says_so(tmp_path: Path) -> None:
    error = error_of(SET_HEAD + "cards:\n  - id: test-a\n    name: A\n    faction: colty\n"
                     "    category: action\n    play: one-shot\n    effect:\n"
                     "      - kill: 1\n", tmp_path)
    assert "effect step without 'do'" in error.message and "kill" in (error.fix or "")


def test_bad_ids_are_explained(tmp_path: Path) -> None:
    error = error_of(SET_HEAD.replace("id: test-set", "id: ../../x"), tmp_path)
    assert "'../../x' is not a valid id" in error.message and "kebab-case" in (error.fix or "")
    error = error_of("name: d\ngame: revolver\nfaction: colty\nsets: [Base Game]\n"
                     "cards: {a: 1}\n", tmp_path, Deck)
    assert "'Base Game' is not a valid id" in error.message
    assert (error.where.line, error.where.column) == (4, 8)


def test_round_trip_keeps_comments_and_order() -> None:
    text = "# head\nb: 1  # one\na:\n  - x\n"
    assert dump_yaml(parse_yaml(text, Path("f"))) == text


def test_write_yaml_adds_a_header_once(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    header = "# yaml-language-server: $schema=../schemas/deck.schema.json"
    write_yaml(path, {"name": "x"}, header=header)
    write_yaml(path, parse_yaml(path.read_text(), path), header=header)
    assert path.read_text() == header + "\nname: x\n"


