"""The mock card table: cards laid, turned up and taken, hands reaching in, both cameras."""

from __future__ import annotations

import pytest

from cogtable.inputs import BoardSettled, BoardUnsettled, PartStatus
from cogtable.mock.cards_world import CardsWorld
from cogtable.sights.camera import CameraPart
from cogtable.sights.cards import CardsSight
from cogtable.tables.base import CameraRegion
from vision.cards.mat import standard_mat
from vision.cards.reader import CardReader
from vision.peg_disk.settle import BoardState, SettlingFilter

MAT = standard_mat(4)
SIZE = (1280, 720)


def dealt(camera: str = "render", seed: int = 71_001) -> CardsWorld:
    """Seat 1 holds a role face down and a card up, seat 3 two cards up, the centre one back."""
    world = CardsWorld(MAT, camera=camera, camera_size=SIZE, seed=seed)
    world.lay("seat1", None)
    world.lay("seat1", 203)
    world.lay("seat3", 17)
    world.lay("seat3", 4)
    world.lay("centre", None)
    return world


def test_what_lies_on_the_mat_is_what_both_cameras_read() -> None:
    world = dealt()
    expected = {
        "seat1": ((203,), 1),
        "seat2": ((), 0),
        "seat3": ((4, 17), 0),
        "seat4": ((), 0),
        "centre": ((), 1),
    }
    assert world.contents() == expected
    rendered = CardReader(MAT).read(world.camera_for(SIZE).grab())
    assert rendered.position() == expected and rendered.doubtful() == ()
    truth = CardsWorld(MAT, camera="truth")
    truth.restore(world.to_json())
    assert truth.camera_for(SIZE).grab().position() == expected


def test_a_card_turned_up_and_one_taken_are_read_so() -> None:
    world = dealt(seed=71_002)
    reader = CardReader(MAT)
    camera = world.camera_for(SIZE)
    reader.read(camera.grab())
    world.turn_up("seat1", 205)
    world.take("seat3", 17)
    world.tick()
    reading = reader.read(camera.grab())
    assert reading.zones["seat1"].label() == ((203, 205), 0)
    assert reading.zones["seat3"].label() == ((4,), 0)


def test_a_hand_reaching_in_holds_the_zone_back_until_withdrawn() -> None:
    world = dealt(seed=71_003)
    times = iter(range(100))
    settle = SettlingFilter(window=0.3, clock=lambda: next(times) * 0.1)
    reader = CardReader(MAT)
    camera = world.camera_for(SIZE)
    for _ in range(4):
        world.tick()
        status = settle.update(reader.read(camera.grab()))
    assert status.state is BoardState.SETTLED and status.committed == world.contents()
    world.reach("seat 2", "seat3")
    world.tick()
    reading = reader.read(camera.grab())
    assert "seat3" in reading.doubtful()
    assert settle.update(reading).state is BoardState.COVERED
    truth = CardsWorld(MAT, camera="truth")
    truth.reach("seat 2", "seat3")
    assert "seat3" in truth.camera_for(SIZE).grab().doubtful()
    world.withdraw("seat 2")
    world.tick()
    assert reader.read(camera.grab()).doubtful() == ()


@pytest.mark.parametrize(
    ("act", "message"),
    [
        (lambda w: w.lay("seat9", 3), "no zone 'seat9'"),
        (lambda w: w.take("seat2", None), "zone seat2 holds no face-down card"),
        (lambda w: w.take("seat1", 99), "zone seat1 holds no card 99 face up"),
        (lambda w: w.lay("seat2", 586), "586 is the card back"),
        (lambda w: w.restore({"cards": {"seat1": [[1, 2]]}}), "not a saved card mat"),
    ],
)
def test_impossible_moves_are_refused_in_one_line(act, message: str) -> None:
    world = dealt(camera="truth")
    before = world.contents()
    with pytest.raises(ValueError, match=message):
        act(world)
    assert world.contents() == before


def test_the_unplugged_camera_gives_nothing() -> None:
    world = dealt()
    world.camera_present = False
    assert world.camera_for(SIZE).grab() is None
    truth = dealt(camera="truth")
    truth.camera_present = False
    assert not truth.camera_for(SIZE).grab().ok


def test_the_cards_sight_sends_a_settled_mat_once_and_says_why_it_waits() -> None:
    world = dealt(camera="truth")
    sent: list[object] = []
    times = iter(range(1000))
    clock = lambda: next(times) * 0.1  # noqa: E731 - one frame a tick
    region = CameraRegion("cardmat", "cards")
    sight = CardsSight(
        lambda item, seen_at=None: sent.append(item),
        CameraPart(lambda item, seen_at=None: sent.append(item)),
        clock,
        (region,),
        lambda regions: CardReader(MAT),
    )
    camera = world.camera_for(SIZE)
    for _ in range(6):
        sight.see(camera.grab(), 0.0)
    settled = [item for item in sent if isinstance(item, BoardSettled)]
    assert len(settled) == 1 and settled[0].observation == {"cardmat": world.contents()}
    world.reach("seat 2", "seat3")
    sight.see(camera.grab(), 0.0)
    assert isinstance(sent[-1], BoardUnsettled) and "cardmat" in sent[-1].reason
    world.withdraw("seat 2")
    world.turn_up("seat1", 210)
    for _ in range(6):
        sight.see(camera.grab(), 0.0)
    settled = [item for item in sent if isinstance(item, BoardSettled)]
    assert len(settled) == 2 and settled[1].observation["cardmat"]["seat1"] == ((203, 210), 0)
    world.camera_present = False
    sight.see(camera.grab(), 0.0)
    assert any(isinstance(item, PartStatus) and item.status == "no camera" for item in sent)
