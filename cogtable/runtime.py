"""The table runtime: one profile's parts joined to the controller, its journal and LEDs.

:class:`Runtime` builds the input queue, the journal, the
:class:`~cogtable.table.GameTable`, the :class:`~cogtable.controller.Controller`
and the LED renderers, and runs the producers that feed the queue: the camera
thread (it reads what the controller's :class:`~cogtable.reading_plan.ReadingPlan`
says), the Pico link, the GPIO buttons, the console inbox. A part that is
missing or fails is a status, retried; it never stops the runtime. It knows no
game and imports no mock: a command injects a simulated ``world`` (lock step)
or a ``synthetic`` camera. Call :meth:`run` from the thread that built it.
docs/ARCHITECTURE.md follows a frame and a press through it.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from cogtable.board_setup import board_geometry, camera_calibration, letter_classifier
from cogtable.camera_picture import CameraPicture
from cogtable.card_mat_setup import card_mat
from cogtable.commit_decision import Explanations
from cogtable.console_inbox import Inbox
from cogtable.controller import Controller
from cogtable.errors import UserError
from cogtable.files import ensure_folder
from cogtable.game_choice import GameChoice, choose, refereeable
from cogtable.handled_inputs import HandledLog, ObservedTable
from cogtable.inputs import (
    ButtonPressed,
    DiceRolled,
    Input,
    PartStatus,
    Shutdown,
)
from cogtable.journal import JOURNAL_NAME, Journal
from cogtable.outputs import FanOut, LastFrame, PicoRenderer
from cogtable.reading_plan import ReadingPlan
from cogtable.screen import TableScreen
from cogtable.sensors import Sensors
from cogtable.sights.camera import CameraPart
from cogtable.sights.cards import CardsSight
from cogtable.sights.parts import PartsSight
from cogtable.sights.peg_disk import PegSight
from cogtable.table import GameTable
from cogtable.table_status import TableStatus
from cogtable.tables.base import CARD_MAT, PEG_DISK, PRINTED_PARTS, CameraRegion
from cogtable.waits import WaitKind
from firmware_bridge import link as pico
from firmware_bridge.simulator import Simulator, SimulatorError
from hardware.buttons import ButtonEvent, TableButtons, pin_factory_for
from hardware.leds import Frame, GpioSeatLeds, Renderer
from hardware.profile import Profile, pico_buttons
from vision.parts.letter_model import TaughtLetterModel
from vision.peg_disk.reader import BoardReader
from vision.sources import CameraSource, PiCameraSource, SourceError, open_source

log = logging.getLogger(__name__)
Clock = Callable[[], float]

PRESS_TIMEOUT_S = 3.0
"""How long a simulated press or a typed line waits for the controller to handle it."""
CAMERA_RETRY_S = 1.0
CONSOLE_POLL_S = 0.25
"""How often the state folder's console is looked at for answers (``cogtable answer``)."""
FRAME_PERIOD_S = 1 / 15
HANDLED_TIMEOUT_S = 10.0
STOP_JOIN_S = 1.0
"""How long stop() waits for each producer thread."""
STOP_FLUSH_S = 0.5
"""How long stop() waits for the Pico to acknowledge the last LED frame."""
GPIO_DIE = -1
"""The die number of a roll made by the Pi for its GPIO roll button (Pico dice count from 0)."""


class SimulatedTable(Protocol):
    """A simulated physical table the runtime films in lock step (the mock's, injected)."""

    seed: int

    def tick(self) -> object:
        """Move the world on by one camera frame (its people act)."""
        ...

    def camera_for(self, size: tuple[int, int]) -> Any:
        """The camera that films this world at ``size``."""
        ...


SyntheticCamera = Callable[[Profile, tuple[int, int]], Any]
"""Opens the camera of a profile whose source is ``synthetic`` (a command injects it)."""


class Runtime:
    """One table: its parts, controller, journal and LEDs, built from a profile."""

    def __init__(
        self,
        profile: Profile,
        state_dir: str | Path,
        *,
        clock: Clock = time.monotonic,
        quiet: bool = False,
        world: SimulatedTable | None = None,
        game: GameChoice | None = None,
        synthetic: SyntheticCamera | None = None,
    ) -> None:
        self.profile = profile
        self.choice = game or choose(profile)
        self.buttons = pico_buttons(profile)
        self.state_dir = _state_dir(Path(state_dir))
        self.clock = clock
        self.quiet = quiet
        self.world = world
        self.synthetic = synthetic
        self.letters: TaughtLetterModel | None = None
        """Read letter tiles with this classifier instead of the profile's (the mock owner's)."""
        self.inputs: queue.SimpleQueue[Input] = queue.SimpleQueue()
        """SimpleQueue: its put is reentrant, so signal handlers may call it."""
        self.handled = HandledLog()
        self.latencies: list[float] = []
        """Seconds from a settled frame to its LED frame leaving the host (the Pico link)."""
        self._grabbed: dict[int, float] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._visible: Frame | None = None
        self._frozen = False
        self.geometry = board_geometry(profile)
        self.calibration = camera_calibration(profile)
        self.journal = Journal(self.state_dir / JOURNAL_NAME)
        self.picture = CameraPicture.in_state_dir(self.state_dir, time.monotonic)
        """The camera's latest overlay picture, ``<state-dir>/camera.png`` (cogtable snapshot)."""
        try:
            self._build(profile)
        except BaseException:
            self.journal.close()
            raise
        self.controller = Controller(
            ObservedTable(self.table, self.note_handled), self.inputs, clock=clock
        )

    def _build(self, profile: Profile) -> None:
        """The link, the renderers and the game table (the journal is already open)."""
        self.simulator, self.link = self._make_link()
        self.pico = PicoRenderer(self.link, profile.leds) if self.link is not None else None
        self.sight = LastFrame()
        self.seat_leds: GpioSeatLeds | None = None
        self.gpio_buttons: TableButtons | None = None
        self.screen = None if self.quiet else TableScreen()
        self.renderer = FanOut(self._renderers())
        self.table = self._make_table()
        self.plans = self.table.plans
        """What the camera thread reads (the controller publishes it; the camera reads only it)."""

    # -- building ----------------------------------------------------------------

    def _make_link(self) -> tuple[Simulator | None, pico.Link | None]:
        port = self.profile.serial.port
        seed = self.world.seed if self.world is not None else None  # a seeded run rolls alike
        simulator = Simulator(dice_seed=seed) if port == "sim" else None
        path = simulator.port if simulator is not None else port
        return simulator, pico.Link(path, on_status=self._link_status)

    def _renderers(self) -> list[Renderer]:
        renderers: list[Renderer] = [self.sight]
        if self.pico is not None:
            renderers.append(self.pico)
        if any(seat.led_pins for seat in self.profile.seats):
            self.seat_leds = self._gpio_part(
                lambda: GpioSeatLeds.from_profile(self.profile, pin_factory_for(self.profile.gpio))
            )
            if self.seat_leds is not None:
                renderers.append(self.seat_leds)
        return renderers

    def _make_table(self) -> GameTable:
        colours = tuple(seat.colour for seat in self.profile.seats)
        seed = self.world.seed if self.world is not None else 0
        template = Frame.for_profile(self.profile)
        return GameTable(
            self.journal,
            self.renderer,
            template,
            colours,
            game=self.choice,
            seed=seed,
            clock=self.clock,
            sensors=Sensors.of(self.profile),
            games=refereeable(self.profile) or [self.choice],
            screen=self.screen,
        )

    def _gpio_part(self, make: Callable[[], Any]) -> Any:
        """A gpiozero part, or None with a ``gpio`` status when the pins cannot be had."""
        try:
            return make()
        except Exception as error:  # gpiozero raises many kinds; none may stop the table
            self.put(PartStatus("gpio", "unavailable", str(error)))
            return None

    # -- the service runner's API --------------------------------------------------

    def start(self) -> None:
        """Start the producers: camera thread, Pico link (and simulator), GPIO buttons."""
        self._start_pico()
        self.gpio_buttons = self._gpio_part(
            lambda: TableButtons(
                self.profile, self._gpio_event, pin_factory=pin_factory_for(self.profile.gpio)
            )
        )
        if self.gpio_buttons is not None:
            self.put(PartStatus("gpio", "ok"))
        self._thread(self._camera_loop, "camera")
        self._thread(self._console_loop, "console")

    def run(self, heartbeat: Callable[[], object] = lambda: None) -> str:
        """Run the controller in this thread until a Shutdown input; its reason."""
        self.controller.heartbeat = heartbeat
        return self.controller.run()

    def status(self) -> dict[str, Any]:
        """The status as the controller last published it, with the parts and the last error.

        JSON-ready and safe from any thread (the status writer, a watcher): it reads
        what the controller thread published after its last change, never the game.
        """
        known = self.controller.state
        return {
            **self.table.published.to_json(),
            "parts": dict(known.parts),
            "last_error": known.last_error,
        }

    def stop(self) -> None:
        """Stop the producers; send the last (paused) frame; close link, simulator, GPIO.

        Bounded to about two seconds, inside systemd's stop time-out: a producer
        stuck in a blocking camera read is left to die with the process.
        """
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=STOP_JOIN_S)
        if self.link is not None:
            self.link.flush(STOP_FLUSH_S)
            self.link.close()
        if self.simulator is not None:
            self.simulator.close()
        for part in (self.gpio_buttons, self.seat_leds):
            if part is not None:
                part.close()
        with contextlib.suppress(sqlite3.ProgrammingError):
            self.journal.close()  # already closed when run() ended; not if it never ran

    def put(self, item: Input) -> None:
        """Put one input on the queue (any thread)."""
        self.inputs.put(item)

    @property
    def stopping(self) -> threading.Event:
        """Set once :meth:`stop` began: a producer waiting on the controller gives up."""
        return self._stop

    # -- what people at the table see -------------------------------------------------

    def visible_frame(self) -> Frame | None:
        """The LED frame the table physically shows (frozen while the Pico is unplugged)."""
        if self.pico is None:
            return self.sight.frame
        if not self._frozen:
            self._visible = self.pico.shown if self._ever_connected() else None
        return self._visible

    def _ever_connected(self) -> bool:
        return self.link is not None and self.link.info is not None

    def shown_status(self) -> TableStatus:
        """The table's status as its screen last showed it (safe from any thread)."""
        return self.table.published

    def stuck_words(self) -> str:
        """What the table waits for, as it says so itself (a run that gave up).

        A mock run that never ends says why in the table's own words
        (:mod:`cogtable.waits`): the request nobody answered, the board that
        differs, the camera that cannot tell, or a simulated Pico whose firmware
        died; what it sees; how to put it right.
        """
        status = self.shown_status()
        asks = [f"{ask['purpose']} ({ask['route']})" for ask in status.waiting_for]
        clues = [f"the table waits for {', '.join(asks)}"] if asks else []
        if status.waiting:
            clues.append(f"the camera: {status.waiting}")
        wait = status.wait
        if wait is not None:
            clues.append(
                f"for {wait.seconds:.0f} s it expected {wait.expected},"
                f" sees {wait.seen}; to go on: {wait.remedy}"
            )
        said = wait is not None and wait.kind is WaitKind.PICO
        if not said and self.link is not None and self.link.status != pico.Status.CONNECTED:
            clues.append(f"the Pico link is {self.link.status.value}")
        return "; ".join(clues)

    # -- the Pico ------------------------------------------------------------------

    def _start_pico(self) -> None:
        if self.link is None:
            return
        if self.simulator is not None:
            try:
                self.simulator.start()
            except (SimulatorError, OSError) as error:
                self.put(
                    PartStatus("link", "no pico", f"the simulated Pico did not start: {error}")
                )
        self.link.start()
        self._thread(self._pump_link, "pico-events")
        if self.world is not None:
            with contextlib.suppress(pico.LinkError):
                self.link.wait_connected(5.0)

    def _link_status(self, status: pico.Status) -> None:
        connected = status == pico.Status.CONNECTED
        if not connected and not self._frozen:
            self._visible = self.pico.shown if self.pico and self._ever_connected() else None
        self._frozen = not connected
        detail = self.link.error if self.link is not None and not connected else ""
        self.put(PartStatus("link", status.value, detail or ""))

    def _pump_link(self) -> None:
        assert self.link is not None
        while not self._stop.is_set():
            try:
                event = self.link.events.get(timeout=0.1)
            except queue.Empty:
                continue
            item = _link_input(event, self.buttons)
            if item is not None:
                self.put(item)

    def _gpio_event(self, event: ButtonEvent) -> None:
        if event.kind == "roll":
            if event.gesture != "held":
                faces = self.profile.dice.faces
                self.put(DiceRolled(GPIO_DIE, random.SystemRandom().randint(1, faces)))
            return
        self.put(ButtonPressed(event.kind, event.seat, event.gesture == "held"))  # type: ignore[arg-type]

    # -- the console of a headless table --------------------------------------------

    def _console_loop(self) -> None:
        """Answers left by ``cogtable answer`` in the state folder go on the queue."""
        inbox = Inbox(self.state_dir)
        while not self._stop.wait(CONSOLE_POLL_S):
            for command in inbox.take():
                self.put(command)

    # -- the camera ------------------------------------------------------------------

    def _camera_loop(self) -> None:
        """The camera thread; if it fails, the controller is told to stop (never left waiting)."""
        try:
            self._read_camera()
        except Exception as error:  # a bug here must end the run, not hang it
            log.exception("the camera thread failed")
            self.put(Shutdown(f"the camera thread failed: {type(error).__name__}: {error}"))

    def _read_camera(self) -> None:
        """Read what the controller's latest :class:`ReadingPlan` says, frame by frame.

        Only the published plan is read here, never the table's state, which the
        controller thread changes meanwhile.
        """
        camera, part = None, CameraPart(self.offer)
        sight: PegSight | PartsSight | CardsSight | None = None
        while not self._stop.is_set():
            plan = self.plans.current
            regions = plan.regions
            if not regions:
                sight = self._idle_frame(part, plan)
                continue
            if camera is None:
                camera = self._open_camera(part)
                if camera is None:
                    continue
            if self.world is not None:
                self.world.tick()
            grabbed = _grab(camera)
            seen_at = time.perf_counter()
            if sight is None or _regions_of(sight) != regions:
                sight = self._sight(regions, part)
                sight.picture = self.picture
            sight.see(grabbed, seen_at)
            if self.world is None:
                self._stop.wait(FRAME_PERIOD_S)
        if camera is not None:
            camera.close()

    def _idle_frame(self, part: CameraPart, plan: ReadingPlan) -> None:
        """The game reads nothing from the camera: say so once; the mock world's time goes on."""
        part.report("not used", plan.note or "this game reads nothing")
        if self.world is None:
            self._stop.wait(FRAME_PERIOD_S)
        else:
            self.world.tick()

    def _sight(
        self, regions: tuple[CameraRegion, ...], part: CameraPart
    ) -> PegSight | PartsSight | CardsSight:
        """How the game's regions are read and settled: the peg disk, printed parts, a card mat."""
        readers = {region.reader for region in regions}
        if readers == {PEG_DISK}:
            return PegSight(
                self.offer,
                part,
                self.clock,
                self._disk_reader,
                regions=regions,
                explain=self._explanations,
            )
        if readers == {PRINTED_PARTS}:
            return PartsSight(
                self.offer,
                part,
                self.clock,
                regions,
                self._parts_reader,
                explain=self._explanations,
            )
        if readers == {CARD_MAT}:
            return CardsSight(
                self.offer,
                part,
                self.clock,
                regions,
                self._cards_reader,
                explain=self._explanations,
            )
        raise UserError(
            f"no vision reader for {sorted(readers)}: this table reads peg-disk, parts, cards"
        )

    def _explanations(self) -> Explanations | None:
        """What the board may show next, as the controller thread last published it."""
        return self.plans.current.explanations

    def _cards_reader(self, regions: Sequence[CameraRegion]) -> Any:
        """The card reader for the profile's card mat."""
        from vision.cards.reader import CardReader

        return CardReader(card_mat(self.profile))

    def _disk_reader(self) -> BoardReader:
        """The Kogworks disk reader for the profile's board and calibration."""
        return BoardReader(self.geometry, self.calibration)

    def _parts_reader(self, regions: Sequence[CameraRegion]) -> Any:
        """The printed-parts reader for the regions' layouts (letters and tile colours: the
        owner's taught ones, else the shipped model's and the reference set's)."""
        from dataclasses import replace

        from vision.parts.look import REFERENCE
        from vision.parts.reader import PartsReader  # loads the letter model

        layouts = [region.layout for region in regions if region.layout is not None]
        letters = self.letters or letter_classifier(self.profile)
        return PartsReader(layouts, replace(REFERENCE, tiles=letters.tiles), classifier=letters)

    def _open_camera(self, part: CameraPart) -> Any:
        try:
            return self._camera_source()
        except (SourceError, OSError, ValueError) as error:
            part.report("no camera", str(error))
            self._stop.wait(CAMERA_RETRY_S)
            return None

    def _camera_source(self) -> Any:
        source = self.profile.camera.source
        size = self.profile.camera.resolution
        if source == "synthetic":
            return self._synthetic_camera(size)
        if isinstance(source, int):
            return CameraSource.usb(source, size)
        if source == "picamera2":
            return PiCameraSource(size)
        return open_source(str(source), size)

    def _synthetic_camera(self, size: tuple[int, int]) -> Any:
        """The simulated world's camera, or the injected one; none without either."""
        if self.world is not None:
            return self.world.camera_for(size)
        if self.synthetic is None:
            raise SourceError("the synthetic camera films the mock table; none was given")
        return self.synthetic(self.profile, size)

    def offer(self, item: Input, seen_at: float | None = None) -> None:
        """A camera input: queued; with a mock world, wait until the controller handled it."""
        mark = self.handled.count
        if seen_at is not None:
            self._grabbed[id(item)] = seen_at
        self.put(item)
        if self.world is not None:
            self.handled.wait_for(lambda done: done is item, mark, HANDLED_TIMEOUT_S, self._stop)

    def note_handled(self, item: Input) -> None:
        """Called by the controller thread after each input (see :class:`ObservedTable`)."""
        seen_at = self._grabbed.pop(id(item), None)
        if seen_at is not None and self.pico is not None and self.pico.sent_at > seen_at:
            self.latencies.append(self.pico.sent_at - seen_at)
        self.handled.record(item)

    def _thread(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)


def _regions_of(sight: PegSight | PartsSight | CardsSight) -> tuple[CameraRegion, ...]:
    return tuple(sight.regions)


def _grab(camera: Any) -> Any:
    """A frame (or a reading, from the truth camera); None when there is none."""
    grab = getattr(camera, "grab", None)
    return grab() if grab is not None else camera.read()


def _link_input(event: object, buttons: dict[int, tuple[int | None, str]]) -> Input | None:
    """The controller input for one event from the Pico (None: nothing to do)."""
    if isinstance(event, pico.ButtonEvent):
        seat_kind = buttons.get(event.button)
        if seat_kind is None or event.action not in ("pressed", "held"):
            return None
        seat, kind = seat_kind
        return ButtonPressed(kind, seat, event.action == "held")  # type: ignore[arg-type]
    if isinstance(event, pico.DiceEvent):
        return DiceRolled(event.die, event.value)
    if isinstance(event, pico.FirmwareMessage):
        log.info("Pico: %s", event.text)
    return None


def _state_dir(path: Path) -> Path:
    """The state directory, created if needed; a clear error if it cannot be."""
    return ensure_folder(path, "the state folder")
