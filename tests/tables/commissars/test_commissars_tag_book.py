"""The Commissars tag book, built from the last committed reading (issue 24)."""

from __future__ import annotations

from cogtable.tables.commissars.cards import (
    CardSeen,
    CommissarsMat,
    Committed,
    FaceUp,
    Holding,
    TagBook,
    card_of,
)

FACTIONS = ("gorobotchev", "androidopov")
COUNTER = "Counter Propaganda"


def seen(*stack: int, top: int | None = None) -> CommissarsMat:
    """A two-seat mat: seat 1's pile showing ``top``, the stack showing ``stack`` (tag order)."""
    cards = [card_of(tag, FACTIONS) for tag in sorted(stack)]
    pile = () if top is None else (card_of(top, FACTIONS),)
    assert all(isinstance(card, CardSeen) for card in [*cards, *pile])
    return CommissarsMat((pile, ()), (1, 1), tuple(cards))  # type: ignore[arg-type]


def holding(stacked: int, plies: int) -> Holding:
    """The game holding ``stacked`` copies of seat 1's Counter Propaganda on the stack."""
    return Holding({(0, COUNTER): FaceUp(stack=stacked)}, (None, None), (0, 0), plies)


def test_a_play_taken_back_forgets_the_copy_taken_off_the_stack_whatever_its_tag() -> None:
    """Two Counter Propaganda of one seat on the stack, the newer with the lower tag (the
    camera sees no order); the newer play undone and taken off: the older is still counted
    (sim commissars --players 3 --seed 1 --undo-rate 0.3: the book forgot the one still
    there and asked for it to go, for good)."""
    newer, older = 8, 9
    assert card_of(newer, FACTIONS) == CardSeen(newer, COUNTER, 0)
    assert card_of(older, FACTIONS) == CardSeen(older, COUNTER, 0)
    book = TagBook.committed_to(Committed(seen(newer, older), holding(2, 10)))
    assert book.counted(newer) and book.counted(older)
    fresh = book.follow(holding(1, 9), seen(older))
    assert fresh == []
    assert book.counted(older), "the copy still on the stack is the one the game holds"
    assert not book.counted(newer)


def test_a_card_countered_from_under_a_full_stack_lands_on_its_pile_counted() -> None:
    """The stack shows its five newest cards; a Propaganda set aside under them is countered
    and goes to its pile, over the top the committed reading showed: not a card laid
    (sim commissars --players 4 --seed 1 --undo-rate 0.3 asked for it to go, for good)."""
    propaganda, gears = 1, 29
    assert card_of(propaganda, FACTIONS) == CardSeen(propaganda, "Propaganda", 0)
    assert card_of(gears, FACTIONS) == CardSeen(gears, "Seize the Gears", 0)
    then = Holding(
        {(0, "Propaganda"): FaceUp(stack=1), (0, "Seize the Gears"): FaceUp(pile=1)},
        ("Seize the Gears", None),
        (4, 0),
        40,
    )
    now = Holding(
        {(0, "Propaganda"): FaceUp(pile=1), (0, "Seize the Gears"): FaceUp(pile=1)},
        ("Propaganda", None),
        (5, 0),
        42,
    )
    book = TagBook.committed_to(Committed(seen(top=gears), then))
    assert book.follow(now, seen(top=propaganda)) == []
    assert book.counted(propaganda)


def stack_holding(*order: str, plies: int, piled: tuple[str, ...] = ()) -> Holding:
    """Seat 1's cards on the stack in ``order`` (oldest first) and ``piled`` on its pile."""
    cards: dict[tuple[int, str], FaceUp] = {}
    for name in {*order, *piled}:
        cards[(0, name)] = FaceUp(stack=order.count(name), pile=piled.count(name))
    top = piled[-1] if piled else None
    return Holding(cards, (top, None), (len(piled), 0), plies, tuple((0, n) for n in order))


def test_a_card_laid_while_an_older_copy_lies_set_aside_is_a_card_laid() -> None:
    """The stack shows its newest cards; one Counter Propaganda lies set aside under them.
    Another Counter Propaganda laid (the oldest card in view set aside for it) is a play,
    not the set-aside copy come back (sim commissars --players 6 --seed 9: a Doublethink
    laid so was 'in sync' for ever)."""
    older, laid, propaganda, gears = 9, 8, 1, 29
    order = (COUNTER, "Propaganda", "Seize the Gears")
    book = TagBook.committed_to(Committed(seen(propaganda, gears), stack_holding(*order, plies=5)))
    fresh = book.follow(stack_holding(*order, plies=5), seen(gears, laid))
    assert [card.tag for _, card in fresh] == [laid]
    assert not book.counted(older)


def test_a_card_set_aside_comes_back_into_view_counted_when_a_newer_one_leaves() -> None:
    """The newest card resolved to its pile: the set-aside Counter Propaganda shows again
    and is the copy the game holds, not a card laid."""
    older, propaganda, gears = 9, 1, 29
    then = stack_holding(COUNTER, "Propaganda", "Seize the Gears", plies=5)
    now = stack_holding(COUNTER, "Propaganda", plies=6, piled=("Seize the Gears",))
    book = TagBook.committed_to(Committed(seen(propaganda, gears), then))
    assert book.follow(now, seen(older, propaganda, top=gears)) == []
    assert book.counted(older)


def test_a_resolve_taken_back_puts_the_card_back_on_top_of_the_stack_counted() -> None:
    """An undo takes a resolved card off its pile back onto the stack, newer than the card
    in view under it: the copy the game holds again, not a card laid (sim commissars
    --players 6 --seed 9: a Doublespeak whose retarget was undone was refused as a play)."""
    counter, propaganda = 8, 1
    then = stack_holding("Propaganda", plies=6, piled=(COUNTER,))
    now = stack_holding("Propaganda", COUNTER, plies=5)
    book = TagBook.committed_to(Committed(seen(propaganda, top=counter), then))
    assert book.follow(now, seen(propaganda, counter)) == []
    assert book.counted(counter)
