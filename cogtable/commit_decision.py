"""Which position a still board shows: the explanation its still frames' evidence singles out.

A reader never turns one frame into a move (docs/ARCHITECTURE.md, "Reading the physical
board"). Every frame gives per-place evidence, summed while the board is still and clear
(:mod:`cogtable.place_evidence`: :class:`PlaceEvidence`, :class:`StillEvidence`).
The game is the prior: its adapter lists the few positions that can follow the committed one
(:class:`Explanations`: the committed position, its legal successors, a
take-back, physical mistakes and illegal moves), and :func:`decide` commits the
one the summed evidence clearly singles out:

- the best explanation is committed when it beats every other by at least
  ``bound`` (nats of summed log likelihood); two explanations closer than
  that are not committed (:attr:`DecisionKind.UNSURE`), and so an illegal
  position as likely as a legal one never yields the legal one;
- only the places where explanations differ weigh: a place no plausible
  explanation changes needs no certainty of its own;
- a place whose evidence clearly contradicts even the best explanation (by
  ``place_bound`` in sum and :data:`PLACE_MEAN` a frame; a place that only
  leans elsewhere does not) is something no explanation foresaw (two cogs at
  once, a cog knocked over): the board is then committed as it is seen,
  :attr:`ExplanationKind.OTHER`, so the table can say it is out of sync, but
  only when each such place's class is itself clear of every other.

Each frame can argue against a class at a place only so much (the evidence is mixed with
"none of them", :data:`cogtable.place_evidence.OUTLIER_SHARE`), and a place covered in a
frame weighs for no explanation then.

Some places change on their own, in ways too many to list as whole positions (C.O.G.'s
tiles: any reserve tile may go to any grid cell, a reserve is laid in any order): the
adapter names them :attr:`Explanations.free`, each with the classes the game allows there
(the letters its reserve holds, the bag's remaining letters). Each such place takes the
allowed class its evidence favours, and must single it out from the other allowed ones
(by ``bound`` in sum and :data:`FREE_MEAN` a frame); a class the game does not allow is
committed only as seen, when the evidence is clear of every class.

Game-neutral: places and classes are whatever a reader names (a peg and a cog
colour, a tile slot and a letter, a card zone and a tag), and the adapter's
explanations use the same names. :class:`StillBoardJudge` keeps the evidence
of one still window for a settling filter (:mod:`vision.peg_disk.settle`).

>>> import numpy as np

from cogtable.place_evidence import Label, Place, PlaceEvidence, StillEvidence
>>> frame = PlaceEvidence(("a", "b"), ("empty", "cog"), np.array([[0.0, -9.0], [-1.0, -0.6]]))
>>> still = StillEvidence()
>>> for _ in range(3):
...     still.add(frame)
>>> game = Explanations({"a": "empty", "b": "empty"}, (Explanation(ExplanationKind.LEGAL, {}),))
>>> decide(still, game, bound=5.0).kind.value, decide(still, game).position
('commit', {'a': 'empty', 'b': 'empty'})
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

import numpy as np

from cogtable.place_evidence import Label, Place, PlaceEvidence, StillEvidence

PLACE_MEAN = 4.0
"""Nats per frame, on average, by which a place must favour its class to count as clear when
no explanation foresaw it: a board committed as seen (out of sync) needs every changed place
to look like its class in every frame, not only in their sum (a place misread the same way in
every frame would otherwise add up to certainty)."""
FREE_MEAN = 1.0
"""Nats per frame, on average, by which a free place's class must lead the other classes the
game allows there (besides ``bound`` in sum): a letter misread alike in every frame of a long
window does not add up to certainty."""
BOUND = 12.0
"""Default: nats of summed log likelihood the best explanation must lead the runner-up by."""
PLACE_BOUND = 12.0
"""Default: nats by which a place must favour another class to contradict an explanation."""


class ExplanationKind(Enum):
    """What an explanation of a still board stands for."""

    UNCHANGED = "unchanged"
    """The game's position: nothing happened (in sync)."""
    LEGAL = "legal"
    """A legal successor of the game's position (a move made)."""
    TAKE_BACK = "take-back"
    """The position before the last move (the move taken back)."""
    ILLEGAL = "illegal"
    """A physical mistake or an illegal move: never to be mistaken for a legal one."""
    AS_COMMITTED = "as committed"
    """The board as last committed (it may be out of sync): nothing changed since."""
    OTHER = "other"
    """What the board clearly shows beyond every listed explanation: out of sync."""

    @property
    def legal(self) -> bool:
        """True for the explanations the game accepts as they are."""
        return self in (ExplanationKind.UNCHANGED, ExplanationKind.LEGAL, ExplanationKind.TAKE_BACK)


@dataclass(frozen=True)
class Explanation:
    """One position the still board may show: the places whose class differs from the base."""

    kind: ExplanationKind
    changes: Mapping[Place, Label]
    name: str = ""
    """In words, for messages ("+7.3", "the last move taken back")."""

    def position(self, base: Mapping[Place, Label]) -> dict[Place, Label]:
        """Every place's expected class."""
        return {**base, **self.changes}


IN_SYNC = Explanation(ExplanationKind.UNCHANGED, MappingProxyType({}), "in sync")
"""Nothing happened since the game's position: the first explanation of every game."""


def taken_back(base: Mapping[Place, Label], earlier: Mapping[Place, Label]) -> Explanation:
    """The last move taken back: the board as it was before it (``earlier``), as changes from
    ``base``."""
    changes = {place: label for place, label in earlier.items() if base.get(place) != label}
    return Explanation(ExplanationKind.TAKE_BACK, changes, "the last move taken back")


@dataclass(frozen=True)
class Explanations:
    """What the adapter says may follow: the game's position (``base``, every place it
    expects anything of) and the explanations, each as changes from it.

    ``free`` are places whose class may change on their own, whatever the explanation, to
    any of the classes given (or stay as an explanation has them): see the module docstring.
    """

    base: Mapping[Place, Label]
    options: Sequence[Explanation]
    free: Mapping[Place, tuple[Label, ...]] = field(default_factory=dict)


class DecisionKind(Enum):
    """What the evidence of a still window allows."""

    COMMIT = "commit"
    UNSURE = "unsure"
    """Two explanations are too close to tell apart (or a deciding place is unclear)."""
    NO_EVIDENCE = "no evidence"


@dataclass(frozen=True)
class Decision:
    """The decision on a still window.

    ``explanation`` is what is committed (COMMIT) or leads (UNSURE);
    ``position`` the committed position; ``runner_up`` the closest other
    explanation and ``margin`` the lead over it (nats); ``deciding`` the
    places that tell the two apart (UNSURE) or that make the board out of sync.
    """

    kind: DecisionKind
    explanation: Explanation | None = None
    position: dict[Place, Label] = field(default_factory=dict)
    runner_up: Explanation | None = None
    margin: float = 0.0
    deciding: tuple[Place, ...] = ()

    @property
    def committed(self) -> bool:
        """True when the window's board may be committed."""
        return self.kind is DecisionKind.COMMIT

    def message(self, noun: str = "place") -> str:
        """Why nothing is committed, in words (empty when committed)."""
        if self.kind is DecisionKind.COMMIT:
            return ""
        if self.kind is DecisionKind.NO_EVIDENCE:
            return "waiting for the board to settle"
        names = ", ".join(_place_name(place) for place in self.deciding[:6])
        more = " ..." if len(self.deciding) > 6 else ""
        plural = "s" if len(self.deciding) != 1 else ""
        return f"cannot tell yet what the board shows: {noun}{plural} {names}{more}"


def _place_name(place: Place) -> str:
    if isinstance(place, tuple):
        return ",".join(str(part) for part in place)
    return str(place)


@dataclass(frozen=True)
class _Compiled:
    """Explanations as indices into one evidence layout (places, classes)."""

    base: np.ndarray
    """Per place of the evidence, the base class's index (-1: the base says nothing)."""
    options: tuple[Explanation, ...]
    owner: np.ndarray
    """Per change (all options' changes in a row), the option it belongs to."""
    rows: np.ndarray
    columns: np.ndarray
    allowed: np.ndarray | None = None
    """(places, classes): the classes each free place may take (None: no free place)."""


def _compile(
    explanations: Explanations, places: tuple[Place, ...], classes: tuple[Label, ...]
) -> _Compiled:
    row_of = {place: i for i, place in enumerate(places)}
    column_of = {label: i for i, label in enumerate(classes)}
    free = explanations.free
    base = np.full(len(places), -1)
    for place, label in explanations.base.items():
        if place in row_of and place not in free:
            base[row_of[place]] = _column(column_of, label)
    owner, rows, columns, kept = [], [], [], []
    seen: set[frozenset] = set()
    for option in explanations.options:
        changes = {
            p: c
            for p, c in option.changes.items()
            if explanations.base.get(p) != c and p not in free
        }
        key = frozenset(changes.items())
        if key in seen:
            continue  # the same position twice: the first names it
        seen.add(key)
        for place, label in changes.items():
            if place in row_of:
                owner.append(len(kept))
                rows.append(row_of[place])
                columns.append(_column(column_of, label))
        kept.append(option)
    allowed = _allowed(explanations, row_of, column_of, len(classes)) if free else None
    return _Compiled(
        base,
        tuple(kept),
        np.array(owner, int),
        np.array(rows, int),
        np.array(columns, int),
        allowed,
    )


def _allowed(
    explanations: Explanations,
    row_of: Mapping[Place, int],
    column_of: Mapping[Label, int],
    count: int,
) -> np.ndarray:
    """(places, classes): each free place's allowed classes, with its class in the base and in
    every explanation; every class at the other places."""
    allowed = np.ones((len(row_of), count), bool)
    for place, labels in explanations.free.items():
        if place not in row_of:
            continue
        row = row_of[place]
        allowed[row] = False
        named = [*labels, *(o.changes[place] for o in explanations.options if place in o.changes)]
        if place in explanations.base:
            named.append(explanations.base[place])
        for label in named:
            allowed[row, _column(column_of, label)] = True
    return allowed


def _column(column_of: Mapping[Label, int], label: Label) -> int:
    if label not in column_of:
        raise ValueError(f"an explanation expects {label!r}, which the reader cannot see")
    return column_of[label]


def decide(
    evidence: StillEvidence,
    explanations: Explanations | None,
    committed: Mapping[Place, Label] | None = None,
    *,
    bound: float = BOUND,
    place_bound: float = PLACE_BOUND,
) -> Decision:
    """Decide what the still window's board shows (see the module docstring).

    ``committed`` is the board as last committed, which is itself an
    explanation (:attr:`ExplanationKind.AS_COMMITTED`: nothing changed since,
    even when that was out of sync). Without explanations every place needs
    its own certainty (``place_bound``), as no game narrows what it may show.
    """
    if evidence.total is None:
        return Decision(DecisionKind.NO_EVIDENCE)
    return _decide(
        evidence, _with_committed(explanations, committed), committed, bound, place_bound
    )


def _decide(  # noqa: PLR0917
    evidence: StillEvidence,
    explanations: Explanations,
    committed: Mapping[Place, Label] | None,
    bound: float,
    place_bound: float,
    compiled: _Compiled | None = None,
) -> Decision:
    """:func:`decide` on explanations that already hold the committed board (``compiled``:
    the same, already compiled for the evidence's places and classes)."""
    places, classes, total = evidence.places, evidence.classes, evidence.total
    assert total is not None
    before = committed if committed is not None else explanations.base
    compiled = compiled or _compile(explanations, places, classes)
    scores = _scores(total, compiled)
    if not len(scores):
        return _covered(_as_seen(evidence, {}, None, place_bound), evidence, before)
    order = np.argsort(-scores, kind="stable")
    first = compiled.options[order[0]]
    position = _position(first, explanations.base, places)
    unclear = _choose_free(evidence, compiled.allowed, position, bound)
    leader = np.array([_index(classes, position.get(p)) for p in places])
    contradicted = _contradicted(evidence, leader, place_bound)
    if contradicted.any():
        decision = _as_seen(evidence, position, first, place_bound, contradicted)
        return _covered(_unclear_free(decision, unclear, contradicted, places), evidence, before)
    if unclear.any():
        deciding = tuple(p for p, flag in zip(places, unclear, strict=True) if flag)
        return Decision(DecisionKind.UNSURE, first, position, None, 0.0, deciding)
    if len(order) == 1:
        decision = Decision(DecisionKind.COMMIT, first, position, None, math.inf)
        return _covered(decision, evidence, before)
    second = compiled.options[order[1]]
    margin = float(scores[order[0]] - scores[order[1]])
    if margin >= bound:
        decision = Decision(DecisionKind.COMMIT, first, position, second, margin)
        return _covered(decision, evidence, before)
    other = _position(second, explanations.base, places)
    deciding = tuple(p for p in places if position.get(p) != other.get(p))
    return Decision(DecisionKind.UNSURE, first, position, second, margin, deciding)


def _choose_free(
    evidence: StillEvidence, allowed: np.ndarray | None, position: dict[Place, Label], bound: float
) -> np.ndarray:
    """Set each free place of ``position`` to the allowed class its evidence favours; return
    the free places whose class is not clear of the other allowed ones (see :data:`FREE_MEAN`).
    """
    total = evidence.total
    assert total is not None
    if allowed is None:
        return np.zeros(len(total), bool)
    free = ~allowed.all(axis=1)
    masked = np.where(allowed, total, -np.inf)
    rows = np.arange(len(total))
    best = masked.argmax(axis=1)
    top = masked[rows, best]
    masked[rows, best] = -np.inf
    margin = top - masked.max(axis=1)  # inf where only one class is allowed
    for row in np.flatnonzero(free):
        position[evidence.places[row]] = evidence.classes[best[row]]
    clear = (margin >= bound) & (margin >= FREE_MEAN * evidence.frames)
    return free & ~clear


def _unclear_free(
    decision: Decision, unclear: np.ndarray, contradicted: np.ndarray, places: tuple[Place, ...]
) -> Decision:
    """An as-seen decision is unsure while a free place it did not take as seen is unclear."""
    left = unclear & ~contradicted
    if not decision.committed or not left.any():
        return decision
    deciding = tuple(p for p, flag in zip(places, left, strict=True) if flag)
    return dataclasses.replace(decision, kind=DecisionKind.UNSURE, deciding=deciding)


def _covered(
    decision: Decision, evidence: StillEvidence, before: Mapping[Place, Label]
) -> Decision:
    """Never commit a change (from ``before``) at a place the window's latest frame shows
    covered."""
    if not decision.committed or evidence.last is None:
        return decision
    hidden = set(evidence.last.unseen_places())
    changed = tuple(
        p for p, label in decision.position.items() if p in hidden and before.get(p) != label
    )
    if not changed:
        return decision
    return dataclasses.replace(decision, kind=DecisionKind.UNSURE, deciding=changed)


def _with_committed(
    explanations: Explanations | None, committed: Mapping[Place, Label] | None
) -> Explanations:
    """The adapter's explanations and, when the board was committed, "nothing changed since"."""
    base = dict(explanations.base) if explanations is not None else {}
    options = list(explanations.options) if explanations is not None else []
    if committed is not None:
        if not base:
            base = dict(committed)
        changes = {p: c for p, c in committed.items() if base.get(p) != c}
        options.append(Explanation(ExplanationKind.AS_COMMITTED, changes, "as committed"))
    free = explanations.free if explanations is not None else {}
    return Explanations(base, tuple(options), free)


def _scores(total: np.ndarray, compiled: _Compiled) -> np.ndarray:
    """Each option's summed log likelihood less the base's (only changes count)."""
    known = compiled.base >= 0
    base_of = np.where(known, total[np.arange(len(total)), np.maximum(compiled.base, 0)], 0.0)
    deltas = total[compiled.rows, compiled.columns] - base_of[compiled.rows]
    scores = np.bincount(compiled.owner, weights=deltas, minlength=len(compiled.options))
    return scores


def _position(option: Explanation, base: Mapping[Place, Label], places) -> dict[Place, Label]:
    """The option's position over the evidence's places (the base says nothing: absent)."""
    full = option.position(base)
    return {place: full[place] for place in places if place in full}


def _index(classes: tuple[Label, ...], label: Label) -> int:
    return classes.index(label) if label in classes else -1


def _contradicted(evidence: StillEvidence, expected: np.ndarray, place_bound: float) -> np.ndarray:
    """Per place, True when the evidence clearly favours another class than ``expected`` (by
    ``place_bound`` in sum and :data:`PLACE_MEAN` a frame; a place the explanation says
    nothing of is never contradicted; one that only leans elsewhere is not either)."""
    total = evidence.total
    assert total is not None
    known = expected >= 0
    gap = total.max(axis=1) - total[np.arange(len(total)), np.maximum(expected, 0)]
    return known & _clear(gap, evidence.frames, place_bound)


def _clear(margin: np.ndarray, frames: int, place_bound: float) -> np.ndarray:
    """Margins (nats, summed over ``frames``) that are clear: in sum and a frame on average."""
    return (margin >= place_bound) & (margin >= PLACE_MEAN * frames)


def _as_seen(
    evidence: StillEvidence,
    position: dict[Place, Label],
    leader: Explanation | None,
    place_bound: float,
    contradicted: np.ndarray | None = None,
) -> Decision:
    """The board as seen: the leading explanation with its ``contradicted`` places as the
    evidence has them (without a leader, every place as seen). Committed only if every place
    so changed is clear (its class well ahead of every other)."""
    total, places, classes = evidence.total, evidence.places, evidence.classes
    assert total is not None
    best = total.argmax(axis=1)
    ordered = np.sort(total, axis=1)
    margin = ordered[:, -1] - ordered[:, -2] if total.shape[1] > 1 else np.full(len(total), np.inf)
    clear = _clear(margin, evidence.frames, place_bound)
    changed = np.ones(len(places), bool) if contradicted is None else contradicted
    seen = dict(position)
    for i, place in enumerate(places):
        if changed[i]:
            seen[place] = classes[best[i]]
    unclear = tuple(p for i, p in enumerate(places) if changed[i] and not clear[i])
    changes = {
        p: seen[p]
        for i, p in enumerate(places)
        if changed[i] and position.get(p, _MISSING) != seen[p]
    }
    other = Explanation(ExplanationKind.OTHER, changes, "as seen")
    if unclear:
        return Decision(DecisionKind.UNSURE, other, seen, leader, 0.0, unclear)
    return Decision(DecisionKind.COMMIT, other, seen, leader, 0.0, tuple(changes))


def _frozen(position: Mapping[Place, Label] | None) -> frozenset | None:
    return None if position is None else frozenset(position.items())


_MISSING = object()
"""A place's class in no explanation."""


class StillBoardJudge:
    """The commit decision for one still window, for a settling filter to call.

    ``explain`` gives the adapter's explanations now (None: no game narrows
    the board; every place then needs its own certainty); ``evidence_of``
    turns a reading into its :class:`PlaceEvidence` (None: the reading has
    none, and is never committed by this judge).
    """

    def __init__(
        self,
        explain: Callable[[], Explanations | None],
        evidence_of: Callable[[object], PlaceEvidence | None],
        *,
        bound: float = BOUND,
        place_bound: float = PLACE_BOUND,
    ) -> None:
        self.explain = explain
        self.evidence_of = evidence_of
        self.bound, self.place_bound = bound, place_bound
        self.still = StillEvidence()
        self.last: Decision = Decision(DecisionKind.NO_EVIDENCE)
        self._cache: tuple | None = None

    def restart(self) -> None:
        """The window restarted: forget its frames."""
        self.still.clear()

    def add(self, reading: object) -> tuple[Place, ...]:
        """One still, clear frame's reading. Returns the places it shows something over
        (likelier none of their classes: a hand, a held cog), whose frame must restart the
        window as a hand over the board does; the frame is then not added."""
        evidence = self.evidence_of(reading)
        if evidence is None:
            return ()
        hidden = evidence.unseen_places()
        if not hidden:
            self.still.add(evidence)
        return hidden

    def decide(self, committed: Mapping[Place, Label] | None) -> Decision:
        """The decision on the frames since the window restarted.

        The explanations are compiled once for as long as the adapter gives the
        same object and the board as committed stays the same.
        """
        still = self.still
        if still.total is None:
            self.last = Decision(DecisionKind.NO_EVIDENCE)
            return self.last
        explained = self.explain()
        key = (explained, _frozen(committed), still.places, still.classes)
        cached = self._cache
        if cached is None or cached[0] is not key[0] or cached[1:4] != key[1:]:
            full = _with_committed(explained, committed)
            self._cache = (*key, full, _compile(full, still.places, still.classes))
        full, compiled = self._cache[4], self._cache[5]
        self.last = _decide(still, full, committed, self.bound, self.place_bound, compiled)
        return self.last
