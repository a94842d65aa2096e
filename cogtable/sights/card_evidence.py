"""The card mat's evidence for the commit decision (:mod:`cogtable.commit_decision`).

Places are the mat's zones; a class is what a zone holds as the camera can
see it, the label :meth:`vision.cards.reader.ZoneReading.label` gives: (the
face-up tag ids, sorted; the count of backs). A pile reads as its top card,
so a label is what shows, never the cards under it (those are the game's).

The classes of a frame are every label the game's explanations name (a free
zone's allowed labels too), the board as last committed, and what the frame
itself shows (so a board no explanation foresaw can still be committed as seen,
once it is clear): a fixed list for as long as those stay the same, as the
still window's sum needs (the sight keeps what earlier frames showed since the
last commit). The likelihoods of all zones and classes are one integer matrix
product (tags shown x tags each class holds), so a Cookie mat's hundreds of
allowed labels cost little.
Per zone and class, one frame's log likelihood is:

- a zone read clear: :data:`MISSED_NATS` against the class for each card it
  holds that the frame does not show (a tag lost under a glare stripe now
  and then: other frames outweigh it), :data:`PHANTOM_NATS` for each card the
  frame shows that it does not hold (a tag is never read where none is);
- a doubtful zone (something there no read card explains: a card whose tag is
  hidden, a hand): only the cards shown weigh; more cards may be hidden. If
  the zone shows what it held when last committed and no explanation changes
  it (nor is it free to change on its own: :attr:`Explanations.free`), that is
  all (a peeping card or a shadow does not stall the table over a zone nothing
  happens in); otherwise the zone counts as covered (likelier
  none of its classes), and the frame restarts the still window as a hand over
  the board does: nothing is committed with something unexplained over a zone
  it changes.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from cogtable.commit_decision import Explanations
from cogtable.place_evidence import HIDDEN_MARGIN, PlaceEvidence
from vision.cards.reader import OUTSIDE, CardMatReading

Label = tuple[tuple[int, ...], int]
MISSED_NATS = 6.0
"""Per frame, against a class, per card it holds that a clear zone does not show."""
PHANTOM_NATS = 20.0
"""Per frame, against a class, per card a zone shows that the class does not hold."""
EMPTY: Label = ((), 0)


def card_evidence(
    reading: CardMatReading,
    explanations: Explanations | None,
    committed: Mapping[str, Label] | None,
    also: Iterable[Label] = (),
) -> PlaceEvidence | None:
    """One frame's evidence over the mat's zones (None: the mat was not read).

    ``also``: labels earlier frames showed, kept among the classes so that a label
    flickering in and out does not change the class list (and restart the still sum).
    """
    if not reading.ok:
        return None
    places = (*reading.zones, OUTSIDE)
    seen: dict[str, Label] = {name: zone.label() for name, zone in reading.zones.items()}
    seen[OUTSIDE] = reading.outside.label()
    doubtful = set(reading.doubtful())
    before = dict(explanations.base) if explanations is not None else {}
    before.update(committed or {})
    changing = _changing(explanations)
    classes = _classes(explanations, committed, (*seen.values(), *also))
    unsure = np.array([place in doubtful for place in places])
    likelihood = _log_likelihood(_Classes.of(classes), [seen[place] for place in places], unsure)
    unseen = likelihood.min(axis=1) - 5.0
    for row, place in enumerate(places):
        if unsure[row] and (place in changing or before.get(place, EMPTY) != seen[place]):
            unseen[row] = likelihood[row].max() + HIDDEN_MARGIN + 1.0
    return PlaceEvidence(places, classes, likelihood, unseen)


@dataclass(frozen=True)
class _Classes:
    """Classes as arrays: which tag each holds (classes x tags), their backs, their sizes."""

    tags: dict[int, int]
    holds: np.ndarray
    backs: np.ndarray
    sizes: np.ndarray

    @staticmethod
    @functools.lru_cache(maxsize=8)
    def of(classes: tuple[Label, ...]) -> _Classes:
        """The arrays of ``classes`` (the same list for as long as a still window lasts)."""
        tags = {
            tag: column for column, tag in enumerate(sorted({t for ids, _ in classes for t in ids}))
        }
        holds = np.zeros((len(classes), len(tags)), np.int32)
        for row, (ids, _backs) in enumerate(classes):
            holds[row, [tags[tag] for tag in ids]] = 1
        backs = np.array([count for _ids, count in classes], np.int32)
        return _Classes(tags, holds, backs, holds.sum(axis=1))


def _log_likelihood(classes: _Classes, shown: list[Label], doubtful: np.ndarray) -> np.ndarray:
    """(places, classes): each zone's log likelihood of holding each class when the frame shows
    ``shown`` there (a doubtful zone: only the cards shown weigh)."""
    ids = np.zeros((len(shown), len(classes.tags)), np.int32)
    strays = np.zeros(len(shown), np.int32)
    for row, (seen_ids, _backs) in enumerate(shown):
        for tag in seen_ids:
            if tag in classes.tags:
                ids[row, classes.tags[tag]] = 1
            else:
                strays[row] += 1
    overlap = ids @ classes.holds.T
    seen_backs = np.array([count for _ids, count in shown], np.int32)[:, None]
    phantom = ids.sum(axis=1)[:, None] - overlap + strays[:, None]
    phantom += np.maximum(0, seen_backs - classes.backs[None, :])
    missed = classes.sizes[None, :] - overlap + np.maximum(0, classes.backs[None, :] - seen_backs)
    missed[doubtful] = 0
    return -PHANTOM_NATS * phantom - MISSED_NATS * missed


def _changing(explanations: Explanations | None) -> set[str]:
    """The zones some explanation changes, and the free zones that may change on their own."""
    if explanations is None:
        return set()
    base = explanations.base
    changed = {
        place
        for option in explanations.options
        for place, label in option.changes.items()
        if base.get(place) != label
    }
    free = {place for place, labels in explanations.free.items() if set(labels) - {base.get(place)}}
    return changed | free


def _classes(explanations, committed, shown) -> tuple[Label, ...]:
    """Every label the explanations, the committed board and the frame name, sorted."""
    labels = {EMPTY, *shown, *(committed or {}).values()}
    if explanations is not None:
        labels.update(explanations.base.values())
        for option in explanations.options:
            labels.update(option.changes.values())
        for allowed in explanations.free.values():
            labels.update(allowed)
    return tuple(sorted(labels))


def settled_position(position: Mapping[str, Label]) -> dict[str, Label]:
    """A committed position as the table takes it: no :data:`OUTSIDE` entry when nothing lies
    outside the zones (as :meth:`CardMatReading.position` gives it)."""
    return {place: label for place, label in position.items() if place != OUTSIDE or label != EMPTY}
