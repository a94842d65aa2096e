"""The bad inputs :mod:`tests.test_cli_walk` feeds every subcommand, kind by kind.

Each :class:`Case` is one command line (``{d}`` is the case's folder), the kind
of bad input it is and the words its one line must say.
"""

from __future__ import annotations

from dataclasses import dataclass

GARBAGE = "this is not what you think {[\n"
BINARY = bytes(range(256)) * 4
HUGE = "99999999999999999999999"
ENDLESS = "/dev/zero"
"""A file without end: read whole, it would never be read (or fill the memory)."""
KINDS = (
    "missing file",
    "garbage",
    "binary",
    "folder",
    "wrong types",
    "absurd number",
    "unwritable output",
    "read-only state folder",
)


@dataclass(frozen=True)
class Case:
    """One bad input: the arguments ({d} is the case's folder), its kind, what the error names."""

    kind: str
    argv: tuple[str, ...]
    expect: str
    read_only: str = ""
    """A folder (under {d}) made read-only; the command then runs as a user who cannot write it."""


def case(kind: str, expect: str, *argv: str, read_only: str = "") -> Case:
    """A :class:`Case` (a function, so the table below reads as one line a case)."""
    assert kind in KINDS, kind
    return Case(kind, argv, expect, read_only)


# -- the cases ------------------------------------------------------------------------

PROFILE_CASES = [
    case("missing file", "cannot read the file", "--profile", "{d}/missing.toml"),
    case("garbage", "not valid TOML", "--profile", "{d}/garbage.txt"),
    case("binary", "cannot read the file", "--profile", "{d}/binary.bin"),
    case("folder", "cannot read the file", "--profile", "{d}/folder"),
    case("binary", "too big to be a table profile", "--profile", ENDLESS),
    case("wrong types", 'camera.resolution = "big"', "--profile", "{d}/wrong.toml"),
]


def with_profile(base: tuple[str, ...]) -> list[Case]:
    """The profile cases, after ``base``."""
    return [Case(c.kind, (*base, *c.argv), c.expect) for c in PROFILE_CASES]


def journal_cases(*base: str) -> list[Case]:
    """What a reader of the journal (games, export, replay) is fed as its state folder."""
    return [
        case("missing file", "no journal at", *base, "--state-dir", "{d}/state"),
        case("garbage", "not a cogtable journal", *base, "--state-dir", "{d}/garbage-journal"),
        case("binary", "not a cogtable journal", *base, "--state-dir", "{d}/binary-journal"),
        case("garbage", "is empty: not a journal", *base, "--state-dir", "{d}/empty-journal"),
        case("folder", "is not a file: not a journal", *base, "--state-dir", "{d}/folder-journal"),
        case("folder", "no journal at", *base, "--state-dir", "{d}/afile"),
        case("wrong types", "action 1 cannot be read", *base, "--state-dir", "{d}/wrong-journal"),
        case(
            "read-only state folder",
            "is empty: not a journal",
            *base,
            "--state-dir",
            "{d}/ro-empty-journal",
            read_only="ro-empty-journal",
        ),
    ]


def status_cases(*base: str) -> list[Case]:
    """What a reader of status.json (status, answer) is fed as its state folder."""
    return [
        case("missing file", "no status in", *base, "--state-dir", "{d}/state"),
        case("garbage", "cannot read", *base, "--state-dir", "{d}/garbage-status"),
        case("binary", "(not text)", *base, "--state-dir", "{d}/binary-status"),
        case("folder", "cannot read", *base, "--state-dir", "{d}/folder-status"),
        case("folder", "cannot read", *base, "--state-dir", "{d}/afile"),
        case(
            "wrong types",
            "does not hold a cogtable status",
            *base,
            "--state-dir",
            "{d}/wrong-status",
        ),
    ]


def output_cases(option: str, *base: str) -> list[Case]:
    """An output in a folder that does not exist, and an output that names a folder."""
    return [
        case("unwritable output", "cannot write {d}/missing/x", *base, option, "{d}/missing/x"),
        case("unwritable output", "cannot write {d}/afile/x", *base, option, "{d}/afile/x"),
        case("folder", "cannot write {d}/folder", *base, option, "{d}/folder"),
    ]


def edition_cases(*base: str) -> list[Case]:
    """C.O.G.'s own edition file (``--edition``) of every kind that is not an edition."""
    return [
        case(kind, expect, *base, "--edition", edition)
        for kind, expect, edition in (
            ("missing file", "cannot read the C.O.G. edition file", "{d}/missing.toml"),
            ("garbage", "not valid TOML", "{d}/garbage.txt"),
            ("binary", "cannot read the C.O.G. edition file", "{d}/binary.bin"),
            ("folder", "cannot read the C.O.G. edition file", "{d}/folder"),
            ("binary", "too big to be an edition", ENDLESS),
            ("wrong types", "the [letters] table is missing", "{d}/wrong.toml"),
        )
    ]


def seat_cases(command: str, game: str) -> list[Case]:
    """A seat that is no player, a seat past the last, a seat that is no number."""
    base = (command, game, "--quiet") if command == "sim" else (command, game)
    return [
        case("wrong types", "'wizard' is no player", *base, "--seat", "1=wizard"),
        case("wrong types", "expected N=KIND", *base, "--seat", "one=random"),
        case("absurd number", "there are seats 1 to", *base, "--seat", f"{HUGE}=random"),
        case("absurd number", "expected a number of players", *base, "--players", "many"),
    ]


def sim_cases(game: str) -> list[Case]:
    """A mock run of ``game``: its kept world, its state folder, its numbers."""
    base = ("sim", game, "--quiet")
    if game == "kogworks":
        base = (*base, "--camera", "truth")
    world = "cannot read the mock"
    wrong = "wrong-world" if game == "kogworks" else f"wrong-{game}-world"
    cases = [
        case("garbage", world, *base, "--state-dir", "{d}/garbage-world"),
        case("binary", world, *base, "--state-dir", "{d}/binary-world"),
        case("folder", world, *base, "--state-dir", "{d}/folder-world"),
        case("wrong types", world, *base, "--state-dir", "{d}/" + wrong),
        case("garbage", "not a cogtable journal", *base, "--state-dir", "{d}/garbage-journal"),
        case("folder", "it is a file, not a folder", *base, "--state-dir", "{d}/afile"),
        case("absurd number", "a seed is", *base, "--seed", HUGE),
        case("wrong types", "not an MQTT address", *base, "--broker", "http://h"),
        case("absurd number", "at most 10000 games", *base, "--games", HUGE),
        case("absurd number", "must be at least 1", *base, "--games", "0"),
        case("absurd number", "a chance is 0 to 1", *base, "--undo-rate", "nan"),
        case(
            "read-only state folder",
            "cannot open the journal",
            *base,
            "--state-dir",
            "{d}/ro-state",
            read_only="ro-state",
        ),
        *with_profile((*base, "--state-dir", "{d}/state")),
    ]
    if game == "kogworks":
        return [
            *cases,
            case("absurd number", "too small to read", "sim", game, "--size", "100x80"),
            case("absurd number", "outside 64..4096", "sim", game, "--size", f"{HUGE}x1"),
            case("absurd number", "a chance is 0 to 1", *base, "--illegal-rate", "2"),
        ]
    return [
        *cases,
        case("wrong types", "--seats", *base, "--seats", "wizard,wizard"),
        case("wrong types", "max_turns", *base, "--option", "max_turns=many"),
        case("absurd number", "players", *base, "--players", HUGE),
        case("absurd number", "a chance is 0 to 1", *base, "--mistake-rate", "-1"),
    ]


PLAY = {
    "cog": ("play", "cog", "--seats", "random,random"),
    "commissars": ("play", "commissars", "--seats", "greedy,greedy"),
    "cookie": ("play", "cookie", "--seat", "1=reasoner"),
    "kogworks": ("play", "kogworks", "--red", "greedy"),
}

WALKS: dict[str, list[Case]] = {
    "answer": [
        *status_cases("answer", "6"),
        case(
            "absurd number",
            "--seat is a seat number",
            "answer",
            "6",
            "--seat",
            HUGE,
            "--state-dir",
            "{d}/good",
        ),
        case(
            "absurd number",
            "--seat is a seat number",
            "answer",
            "6",
            "--seat",
            "0",
            "--state-dir",
            "{d}/good",
        ),
        case(
            "read-only state folder",
            "cannot leave the answer",
            "answer",
            "6",
            "--state-dir",
            "{d}/ro-status",
            read_only="ro-status",
        ),
    ],
    "board print": [
        *[
            case(kind, expect, "board", "print", "kogworks", "--out", out)
            for kind, expect, out in (
                ("unwritable output", "the folder {d}/missing does not exist", "{d}/missing/x.png"),
                ("unwritable output", "{d}/afile is a file, not a folder", "{d}/afile/x.pdf"),
                ("folder", "{d}/folder: name a .pdf or a .png file", "{d}/folder"),
                ("wrong types", "name a .pdf or a .png file", "{d}/out/sheet.jpg"),
            )
        ],
        *with_profile(("board", "print", "kogworks", "--out", "{d}/out/sheet.png")),
        case(
            "absurd number",
            "--dpi nan is out of range",
            "board",
            "print",
            "kogworks",
            "--out",
            "{d}/out/s.png",
            "--dpi",
            "nan",
        ),
        case(
            "absurd number",
            "is out of range",
            "board",
            "print",
            "kogworks",
            "--out",
            "{d}/out/s.png",
            "--dpi",
            "1e308",
        ),
    ],
    "cards print": [
        *[
            case(kind, expect, "cards", "print", "cookie", "--out", out)
            for kind, expect, out in (
                ("unwritable output", "the folder {d}/missing does not exist", "{d}/missing/x.png"),
                ("unwritable output", "{d}/afile is a file, not a folder", "{d}/afile/x.pdf"),
                ("folder", "{d}/folder: name a .pdf or a .png file", "{d}/folder"),
                ("wrong types", "name a .pdf or a .png file", "{d}/out/cards.jpg"),
            )
        ],
        *with_profile(("cards", "print", "mat", "--out", "{d}/out/mat.png")),
        *[
            case(
                kind,
                expect,
                "cards",
                "print",
                "commissars",
                "--out",
                "{d}/out/c.pdf",
                "--deck",
                deck,
            )
            for kind, expect, deck in (
                ("missing file", "cannot read it", "{d}/missing.toml"),
                ("garbage", "is not valid TOML", "{d}/garbage.txt"),
                ("binary", "cannot read it", "{d}/binary.bin"),
                ("folder", "cannot read it", "{d}/folder"),
                ("binary", "too big to be a deck list", ENDLESS),
                ("wrong types", "expected only a [cards] table", "{d}/wrong.toml"),
            )
        ],
        case(
            "absurd number",
            "--dpi nan is out of range",
            "cards",
            "print",
            "cookie",
            "--out",
            "{d}/out/c.png",
            "--dpi",
            "nan",
        ),
        case(
            "absurd number",
            "is out of range",
            "cards",
            "print",
            "cookie",
            "--out",
            "{d}/out/c.png",
            "--dpi",
            "1e308",
        ),
    ],
    "camera check": [
        *output_cases("--snapshot", "camera", "check", "--count", "1"),
        *with_profile(("camera", "check", "--count", "1")),
        case("missing file", "no such camera source", "camera", "check", "--source", "{d}/m.avi"),
        case("garbage", "cannot open video file", "camera", "check", "--source", "{d}/garbage.txt"),
        case("binary", "cannot open video file", "camera", "check", "--source", "{d}/binary.bin"),
        case("folder", "no images", "camera", "check", "--source", "{d}/folder"),
        case("absurd number", "camera 99 cannot be opened", "camera", "check", "--source", "99"),
        case("absurd number", "--count -1 is out of range", "camera", "check", "--count", "-1"),
        case("absurd number", "out of range (64..8192", "camera", "check", "--size", f"{HUGE}x1"),
        case("wrong types", "expected WIDTHxHEIGHT", "camera", "check", "--size", "big"),
        case("wrong types", "is a .png file", "camera", "check", "--snapshot", "{d}/out/x.jpg"),
    ],
    "calibrate": [
        *output_cases("--out", "calibrate", "--overlay", "{d}/out/o.png"),
        *output_cases("--overlay", "calibrate", "--out", "{d}/out/cal.json"),
        *with_profile(("calibrate", "--out", "{d}/out/cal.json", "--overlay", "{d}/out/o.png")),
        case("missing file", "no such camera source", "calibrate", "--source", "{d}/missing.avi"),
        case("garbage", "cannot open video file", "calibrate", "--source", "{d}/garbage.txt"),
        case("binary", "cannot open video file", "calibrate", "--source", "{d}/binary.bin"),
        case("folder", "no images", "calibrate", "--source", "{d}/folder"),
        case("absurd number", "camera 99 cannot be opened", "calibrate", "--source", "99"),
        case("absurd number", "camera numbers are 0 to 255", "calibrate", "--source", HUGE),
        case("absurd number", "--frames 0 is out of range", "calibrate", "--frames", "0"),
        case("absurd number", "is out of range", "calibrate", "--frames", HUGE),
        case("absurd number", "--timeout nan is out of range", "calibrate", "--timeout", "nan"),
        case("absurd number", "--timeout -1 is out of range", "calibrate", "--timeout", "-1"),
        case("absurd number", "out of range (64..8192", "calibrate", "--size", f"{HUGE}x1"),
        case("wrong types", "expected WIDTHxHEIGHT", "calibrate", "--size", "big"),
    ],
    "export": [
        *journal_cases("export", "1"),
        *output_cases("--out", "export", "1", "--state-dir", "{d}/good"),
        case("absurd number", "a game id is 1 to", "export", HUGE, "--state-dir", "{d}/good"),
        case("absurd number", "a game id is 1 to", "export", "0", "--state-dir", "{d}/good"),
        case("absurd number", "there is no game 7", "export", "7", "--state-dir", "{d}/good"),
    ],
    "firmware": [
        *with_profile(("firmware", "check", "--port", "none")),
        *[
            case(kind, expect, "firmware", "check", "--port", "none", "--config", config)
            for kind, expect, config in (
                ("missing file", "cannot be read", "{d}/missing.py"),
                ("garbage", "is not valid Python", "{d}/garbage.txt"),
                ("binary", "cannot be read", "{d}/binary.bin"),
                ("folder", "cannot be read", "{d}/folder"),
                ("binary", "too big to be a config.py", ENDLESS),
                ("wrong types", "LED_COUNT is missing", "{d}/wrong.json"),
            )
        ],
        case("absurd number", "--timeout", "firmware", "check", "--timeout", "-1"),
        case("missing file", "no serial port", "firmware", "check", "--port", "{d}/missing"),
        case("wrong types", "nothing to flash", "firmware", "flash", "--port", "sim"),
        case("wrong types", "invalid choice", "firmware", "erase"),
    ],
    "games": [
        *journal_cases("games"),
        *with_profile(("games", "--available")),
    ],
    **{
        f"play {game}": [
            *output_cases("--record", *argv),
            *seat_cases("play", game),
            *(edition_cases(*argv) if game == "cog" else []),
        ]
        for game, argv in PLAY.items()
    },
    "profile check": [
        case("missing file", "cannot read the file", "profile", "check", "{d}/missing.toml"),
        case("garbage", "not valid TOML", "profile", "check", "{d}/garbage.txt"),
        case("binary", "cannot read the file", "profile", "check", "{d}/binary.bin"),
        case("folder", "cannot read the file", "profile", "check", "{d}/folder"),
        case("binary", "too big to be a table profile", "profile", "check", ENDLESS),
        case("wrong types", 'camera.resolution = "big"', "profile", "check", "{d}/wrong.toml"),
    ],
    "profile show": [],  # takes no input
    "replay": [
        *journal_cases("replay", "1"),
        case("missing file", "cannot read", "replay", "{d}/missing.json"),
        case("garbage", "not valid JSON", "replay", "{d}/garbage.txt"),
        case("binary", "cannot read", "replay", "{d}/binary.bin"),
        case("folder", "cannot read", "replay", "{d}/folder"),
        case("binary", "too big to be a game record", "replay", ENDLESS),
        case("wrong types", "record", "replay", "{d}/wrong.json"),
        case("absurd number", "a game id is 1 to", "replay", HUGE, "--state-dir", "{d}/good"),
        case("absurd number", "a game id is 1 to", "replay", "0", "--state-dir", "{d}/good"),
    ],
    "service install": [
        case(
            "folder",
            "it is a file, not a folder",
            "service",
            "install",
            "--dry-run",
            "--root",
            "{d}/afile",
        ),
        case(
            "missing file",
            "there is no such folder",
            "service",
            "install",
            "--dry-run",
            "--root",
            "{d}/missing",
        ),
    ],
    "service uninstall": [
        case(
            "folder",
            "it is a file, not a folder",
            "service",
            "uninstall",
            "--dry-run",
            "--root",
            "{d}/afile",
        ),
        case(
            "missing file",
            "there is no such folder",
            "service",
            "uninstall",
            "--dry-run",
            "--root",
            "{d}/missing",
        ),
    ],
    "service run": [
        case("folder", "it is a file, not a folder", "service", "run", "--state-dir", "{d}/afile"),
        case("folder", "cannot use", "service", "run", "--state-dir", "{d}/afile/state"),
        case(
            "garbage",
            "not a cogtable journal",
            "service",
            "run",
            "--state-dir",
            "{d}/garbage-journal",
        ),
        case(
            "wrong types", "chess", "service", "run", "--game", "chess", "--state-dir", "{d}/state"
        ),
        *with_profile(("service", "run", "--state-dir", "{d}/state")),
        case(
            "wrong types",
            "give --venue and --table-id too",
            "service",
            "run",
            "--state-dir",
            "{d}/state",
            "--broker",
            "mqtt://127.0.0.1:1",
        ),
        case(
            "read-only state folder",
            "cannot open the journal",
            "service",
            "run",
            "--state-dir",
            "{d}/ro-state",
            read_only="ro-state",
        ),
    ],
    "selftest": [
        *with_profile(("selftest",)),
        case("absurd number", "--timeout", "selftest", "--timeout", "-1"),
    ],
    **{
        f"sim {game}": [*sim_cases(game), *seat_cases("sim", game)]
        for game in ("cog", "commissars", "cookie", "kogworks")
    },
    "snapshot": [
        *status_cases("snapshot", "{d}/out/s.png"),
        case("unwritable output", "cannot write {d}/missing/x", "snapshot", "{d}/missing/x"),
        case("folder", "cannot write {d}/folder", "snapshot", "{d}/folder"),
        case("wrong types", "is a .png file", "snapshot", "{d}/out/x.jpg"),
    ],
    "status": status_cases("status"),
    "venue": [
        case("wrong types", "not an MQTT address", "venue", "--broker", "http://x", "--once"),
        case(
            "wrong types",
            "expected 1-64 letters",
            "venue",
            "--broker",
            "mqtt://h",
            "--venue",
            "a/b",
        ),
        case("absurd number", "not a number 1-65535", "venue", "--broker", f"mqtt://h:{HUGE}"),
        case(
            "missing file",
            "--ca-file {d}/missing: there is no such file",
            "venue",
            "--broker",
            "mqtts://h",
            "--ca-file",
            "{d}/missing",
        ),
        case(
            "garbage",
            "credentials",
            "venue",
            "--broker",
            "mqtt://h",
            "--credentials",
            "{d}/garbage.txt",
        ),
        case("wrong types", "not an IP address", "venue", "--broker", "mqtt://h", "--listen", "x"),
        case(
            "absurd number", "a port is 0 to 65535", "venue", "--broker", "mqtt://h", "--port", HUGE
        ),
    ],
    "web": [
        case("missing file", "there is no such folder", "web", "--state-dir", "{d}/missing"),
        case("folder", "it is a file, not a folder", "web", "--state-dir", "{d}/afile"),
        *with_profile(("web", "--state-dir", "{d}/state")),
        case(
            "wrong types", "not an IP address", "web", "--state-dir", "{d}/state", "--listen", "x"
        ),
        case(
            "absurd number",
            "a port is 0 to 65535",
            "web",
            "--state-dir",
            "{d}/state",
            "--port",
            HUGE,
        ),
    ],
}
