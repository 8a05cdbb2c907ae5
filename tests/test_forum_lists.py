"""Forum posts and share links: a deck posted in Markdown or BBCode (BoardGameGeek) and a web
share link are read back as the same deck, and whatever a name holds shows as text, never
as markup."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from deckbuilder.catalog import Catalog, build_catalog
from deckbuilder.decklists import LineStatus
from deckbuilder.decks import (
    LoadedDeck,
    diff_decks,
    load_deck,
    packaged_deck_names,
    resolve_deck,
)
from deckbuilder.decks import read_deck as deck_argument
from deckbuilder.errors import DeckbuilderError
from deckbuilder.shared_lists import (
    BBCODE,
    MARKDOWN,
    ShareCodeError,
    bbcode_text,
    encode_share_code,
    export_forum,
    forum_format,
    import_any_deck_list,
    markdown_text,
    parse_any_deck_list,
    share_code_in,
)

DECKS = ["colty", "mcready", "mapache", "esteban", *packaged_deck_names()]
HOSTILE = [
    "[url=http://evil.example]free cards[/url]",
    "[img]http://evil.example/t.png[/img] [b]bold[/b] [/quote]",
    "<script>alert(1)</script> <img src=x onerror=alert(1)>",
    "![tracker](http://evil.example/p.png) [click](javascript:alert(1))",
    "**bold** _em_ `code` ~~gone~~ | a | b |",
    "# not a heading #",
    "&lt;b&gt; &amp; \\*escaped already\\*",
    "[\u200burl]already broken[/url]",
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return build_catalog()


def deck_of(name: str, catalog: Catalog) -> LoadedDeck:
    return deck_argument(name, catalog).loaded


def round_trip(deck: LoadedDeck, catalog: Catalog, output_format: str,
               tmp_path: Path) -> LoadedDeck:
    post = tmp_path / f"post.{output_format}.txt"
    post.write_text(export_forum(deck, catalog, output_format), encoding="utf-8")
    back = tmp_path / "back.yaml"
    import_any_deck_list(post, catalog, back, force=True)
    return load_deck(back, catalog)


@pytest.mark.parametrize("output_format", [MARKDOWN, BBCODE])
@pytest.mark.parametrize("name", DECKS)
def test_every_packaged_deck_reads_back_as_the_same_deck(
        name: str, output_format: str, catalog: Catalog, tmp_path: Path) -> None:
    deck = deck_of(name, catalog)
    back = round_trip(deck, catalog, output_format, tmp_path)
    assert diff_decks(deck, back).is_empty
    assert back.counts() == deck.counts()
    assert (back.name, back.faction, back.deck.sets, back.deck.description) == (
        deck.name, deck.faction, deck.deck.sets, deck.deck.description)


@pytest.mark.parametrize("output_format", [MARKDOWN, BBCODE])
def test_a_post_groups_the_cards_by_category_with_their_counts(
        output_format: str, catalog: Catalog) -> None:
    deck = deck_of("example-mcready-pinkertons", catalog)
    post = export_forum(deck, catalog, output_format)
    headings = re.findall(r"(Action|Character|Firepower|Location|Open-range) \((\d+)\)", post)
    by_category: dict[str, int] = {}
    for entry in deck.entries:
        assert entry.entry is not None
        category = str(entry.entry.record.category).capitalize()
        by_category[category] = by_category.get(category, 0) + entry.count
    assert {title: int(count) for title, count in headings} == by_category
    assert "62 cards" in post
    assert forum_format(post) == output_format


@pytest.mark.parametrize("output_format", [MARKDOWN, BBCODE])
@pytest.mark.parametrize("name", [*HOSTILE, "two\nlines", "  spaced  ", '"quoted"',
                                  "é and \U0001f600", "next\x85line"])
def test_any_name_reads_back_as_written(name: str, output_format: str, catalog: Catalog,
                                        tmp_path: Path) -> None:
    base = deck_of("colty", catalog)
    cards = dict(base.deck.cards)
    first = next(iter(cards))
    cards[first] -= 1
    cards[name] = 1  # an unknown card under the same hostile name
    deck = resolve_deck(base.deck.model_copy(update={"name": name, "cards": cards}), catalog)
    post = export_forum(deck, catalog, output_format)
    shown = post.replace("[\u200b", "[")  # BBCode's one escape: a zero-width space after [
    assert all(line.isprintable() for line in shown.split("\n"))  # nothing else raw
    back = round_trip(deck, catalog, output_format, tmp_path)
    assert back.name == name
    assert back.deck.cards[name] == 1  # an unknown card kept as written


@pytest.mark.parametrize("name", HOSTILE)
def test_markdown_shows_a_hostile_name_as_text(name: str) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    renderer = markdown_it.MarkdownIt("commonmark").enable(["strikethrough", "table"])
    rendered = renderer.renderInline(markdown_text(name))
    assert "<" not in rendered.replace("&lt;", "")  # no tag at all: no link, image, em ...
    shown = html.unescape(rendered)
    # a name with a character that does not print is shown as a JSON string literal
    assert (shown if name.isprintable() else json.loads(shown)) == name


@pytest.mark.parametrize("name", HOSTILE)
def test_bbcode_opens_no_tag_from_a_hostile_name(name: str) -> None:
    written = bbcode_text(name)
    assert re.search(r"\[/?[A-Za-z*]", written) is None  # nothing a forum reads as a tag
    shown = written.replace("[\u200b", "[")
    assert (shown if name.isprintable() else json.loads(shown)) == name


def test_a_whole_markdown_post_renders_no_link_image_or_script(catalog: Catalog) -> None:
    markdown_it = pytest.importorskip("markdown_it")
    base = deck_of("colty", catalog)
    deck = type(base)(base.deck.model_copy(update={"name": " ".join(HOSTILE[:4]),
                                                   "description": HOSTILE[4]}),
                      base.entries)
    rendered = markdown_it.MarkdownIt("commonmark").render(export_forum(deck, catalog, MARKDOWN))
    rendered = rendered.replace("<em>62 cards</em>", "")  # the post's own footer
    assert not re.search(r"<(a|img|script|em|code|del|table)\b", rendered)
    assert rendered.count("<h2>") == 1 and "<h1>" not in rendered


def test_a_hand_written_post_is_read_with_its_prose_as_comments(
        catalog: Catalog, tmp_path: Path) -> None:
    post = ("My lawmen, tried at the club last week!\n"
            "[b]Faction:[/b] McReady\n"
            "[b][u]Characters[/u][/b]\n"
            "10x Deputy\n"
            "2x Texas Rangr\n"
            "[i]Have fun[/i]\n")
    read = parse_any_deck_list(post, catalog)
    assert read.faction == "mcready"
    status = {line.number: line.status for line in read.lines}
    assert status == {1: LineStatus.COMMENT, 2: LineStatus.HEADER, 3: LineStatus.SECTION,
                      4: LineStatus.OK, 5: LineStatus.UNKNOWN, 6: LineStatus.SECTION}
    assert "Texas Ranger" in read.lines[4].message  # did you mean
    assert read.cards["deputy"] == 10


# -- share links -------------------------------------------------------------------------------
def _web_share_code(deck: LoadedDeck, catalog: Catalog) -> str:
    from deckbuilder.web.deck_state import share_code, state_from_loaded

    return share_code(state_from_loaded(deck), catalog)


@pytest.mark.parametrize("name", DECKS)
def test_a_web_share_link_imports_as_the_same_deck(
        name: str, catalog: Catalog, tmp_path: Path) -> None:
    deck = deck_of(name, catalog)
    code = _web_share_code(deck, catalog)
    for given in (f"http://127.0.0.1:8000/deck?share={code}&collection=mine", code):
        out = tmp_path / "shared.yaml"
        import_any_deck_list(given, catalog, out, force=True)
        back = load_deck(out, catalog)
        assert back.counts() == deck.counts()
        assert (back.name, back.faction, back.deck.sets) == (
            deck.name, deck.faction, deck.deck.sets)


def test_the_library_encodes_a_share_code_as_the_web_does(catalog: Catalog) -> None:
    deck = deck_of("example-mcready-pinkertons", catalog)
    base = catalog.base_deck(deck.game, deck.faction)
    counts = deck.counts()
    out = {card: n - counts.get(card, 0) for card, n in base.items() if n > counts.get(card, 0)}
    into = {card: n - base.get(card, 0) for card, n in counts.items() if n > base.get(card, 0)}
    code = encode_share_code(deck.faction, deck.name, out, into, deck.deck.sets,
                             deck.deck.description)
    assert code == _web_share_code(deck, catalog)


def test_a_broken_share_link_is_one_line_about_the_link(
        catalog: Catalog, tmp_path: Path) -> None:
    code = _web_share_code(deck_of("colty", catalog), catalog)
    with pytest.raises(ShareCodeError) as caught:
        import_any_deck_list(f"http://host/deck?share={code[:-6]}", catalog,
                             tmp_path / "x.yaml")
    assert "share link" in str(caught.value) and "\n" not in str(caught.value)
    assert not (tmp_path / "x.yaml").exists()


def test_a_missing_file_whose_name_looks_like_a_code_is_file_not_found(
        catalog: Catalog, tmp_path: Path) -> None:
    with pytest.raises(DeckbuilderError) as caught:
        import_any_deck_list("my-lawmen-deck-list", catalog, tmp_path / "x.yaml")
    assert not isinstance(caught.value, ShareCodeError)
    assert share_code_in("my-lawmen-deck-list") is not None  # it did look like one


def test_a_text_list_and_a_json_deck_still_read_through_the_one_reader(
        catalog: Catalog) -> None:
    text = parse_any_deck_list("# faction: mcready\n3x Deputy\n", catalog)
    assert text.cards == {"deputy": 3}
    json_deck = parse_any_deck_list('{"faction": "mcready", "slots": {"deputy": 2}}', catalog)
    assert json_deck.cards == {"deputy": 2}
