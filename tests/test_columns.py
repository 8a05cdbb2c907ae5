"""Text wrapped by terminal columns (printable.wrap_columns): wide characters count two, no
line is wider than asked, no word is cut that fits a line, nothing is lost."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from deckbuilder.card_face import face_text
from deckbuilder.card_face.model import CardFace, Fact
from deckbuilder.printable import columns, wrap_columns

WORDS = st.sampled_from(["Deputy", "保安官", "a", "Winchester", "ｗｉｄｅ", "é", "x" * 30,
                         "牧師エステバン"])


@given(st.lists(WORDS, max_size=25), st.integers(min_value=8, max_value=60),
       st.sampled_from(["", "  ", "  Cost  "]), st.sampled_from(["", "    "]))
# a label leaving one column, and a word whose first character is two wide (found by CI)
@example(words=["保安官"], width=9, first="  Cost  ", rest="")
def test_no_line_is_wider_than_asked_and_nothing_is_lost(words: list[str], width: int,
                                                       first: str, rest: str) -> None:
    text = " ".join(words)
    lines = wrap_columns(text, width, first, rest)
    assert lines
    assert all(columns(line) <= width for line in lines)
    assert lines[0].startswith(first.rstrip())
    assert all(line.startswith(rest) for line in lines[1:])
    body = [lines[0][len(first):]] + [line[len(rest):] for line in lines[1:]]
    assert "".join("".join(body).split()) == "".join(text.split())
    # a word that fits a line of its own is never cut
    for word in words:
        if columns(word) <= width - max(columns(first), columns(rest)):
            assert any(word in line.split() for line in lines)


@given(st.lists(WORDS, min_size=1, max_size=10), st.integers(min_value=8, max_value=40))
def test_ids_are_never_cut_when_asked(words: list[str], width: int) -> None:
    lines = wrap_columns(" ".join(words), width, break_long_words=False)
    assert sorted(word for line in lines for word in line.split()) == sorted(words)


def test_a_face_in_japanese_fits_the_terminal() -> None:
    face = CardFace(id="star", kind="card", game="revolver", title="保安官の星",
                    title_unconfirmed=False, subtitle="カード (ホームブリュー)",
                    facts=(Fact(label="コスト", value="無料"), Fact(label="Firepower", value="2")),
                    marks=(), text=("保安官 " * 30,), text_unconfirmed=False, text_note="",
                    unconfirmed=())
    lines = face_text(face, 40)
    assert all(columns(line) <= 40 for line in lines), lines
    # the values line up in one column, whatever the labels' widths
    cost, fire = (line for line in lines if "無料" in line or "Firepower" in line)
    assert columns(cost[:cost.index("無料")]) == columns(fire[:fire.index("2")])
