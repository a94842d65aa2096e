// The live view of the table: draws what /events sends, and replays the journal's games.
// Every text is set with textContent: what the table says is never read as HTML.
"use strict";

const $ = (id) => document.getElementById(id);

function text(id, value) {
  $(id).textContent = value === undefined || value === null || value === "" ? "–" : String(value);
}

function drawLeds(container, segments) {
  container.replaceChildren();
  for (const segment of segments || []) {
    const line = document.createElement("div");
    line.className = "segment";
    const name = document.createElement("span");
    name.className = "segment-name";
    name.textContent = segment.name;
    const rows = document.createElement("div");
    rows.className = "rows";
    for (const row of segment.rows) {
      const rowBox = document.createElement("div");
      rowBox.className = "row";
      for (const led of row) {
        const dot = document.createElement("span");
        const lit = led.colour !== "#000000";
        dot.className = "led" + (lit ? " " + led.animation : "");
        if (lit) dot.style.background = led.colour;
        dot.title = lit ? `${led.colour} ${led.animation}` : "off";
        rowBox.append(dot);
      }
      rows.append(rowBox);
    }
    line.append(name, rows);
    container.append(line);
  }
}

function drawBoard(board, pre, leds) {
  pre.textContent = board ? board.lines.join("\n") : "";
  drawLeds(leds, board ? board.leds : []);
}

function resultWords(outcome, players) {
  if (!outcome) return "";
  const names = (outcome.winners || []).map((seat) => players[seat] || `seat ${seat + 1}`);
  return (names.length ? `${names.join(", ")} won` : "no winner") + ` (${outcome.reason})`;
}

function drawScores(outcome, board) {
  const players = board ? board.players : [];
  const scores = outcome ? outcome.scores : board && Array.isArray(board.public.scores) ? board.public.scores : null;
  const table = $("scores");
  table.hidden = !scores || scores.length === 0;
  const body = table.querySelector("tbody");
  body.replaceChildren();
  (scores || []).forEach((score, seat) => {
    const row = body.insertRow();
    row.insertCell().textContent = players[seat] || `seat ${seat + 1}`;
    row.insertCell().textContent = String(score);
  });
}

function drawCamera(camera) {
  const img = $("camera");
  if (camera.present) {
    const source = `/camera.png?v=${camera.version}`;
    if (img.getAttribute("src") !== source) img.src = source;
  }
  img.hidden = !camera.present;
  $("no-camera").hidden = camera.present;
}

// What the table has waited for long enough to say so: expected, seen, how to go on.
function drawWait(wait) {
  const shown = $("wait");
  shown.replaceChildren();
  shown.classList.toggle("bad", Boolean(wait && wait.kind !== "request"));
  if (!wait) return;
  const lines = [
    `for ${Math.round(wait.seconds)} s the table expects ${wait.expected}`,
    `it sees: ${wait.seen}`,
    `to go on: ${wait.remedy}`,
  ];
  lines.forEach((line) => {
    const div = document.createElement("div");
    div.textContent = line;
    shown.appendChild(div);
  });
}

function drawLive(live) {
  const status = live.status;
  const board = live.board;
  if (status.problem) {
    text("title", status.problem);
  } else if (status.game) {
    text("title", `${status.game} #${status.game_id}, move ${status.ply}`);
  } else {
    text("title", status.message || "cogtable");
  }
  text("turn", status.turn || (status.outcome ? "game over" : ""));
  text("asking", status.asking);
  drawWait(status.wait);
  text("last", status.last);
  // The status's message is the last move's words unless something was refused or is amiss.
  const refused = status.message && status.message !== status.last ? status.message : "";
  text("refused", refused);
  $("refused").classList.toggle("bad", Boolean(refused));
  text("sync", status.game ? (status.in_sync ? "in sync" : "not in sync") + (status.waiting ? ` (${status.waiting})` : "") : "");
  text("result", resultWords(status.outcome, board ? board.players : []));
  const parts = status.parts || {};
  text("parts", Object.keys(parts).sort().map((part) => `${part}: ${parts[part]}`).join(", "));
  text("error", status.last_error || "none");
  $("stale").hidden = !live.stale;
  const problem = $("board-problem");
  problem.hidden = !live.board_problem;
  problem.textContent = live.board_problem || "";
  drawBoard(board, $("board"), $("leds"));
  drawScores(status.outcome, board);
  drawCamera(live.camera);
  document.body.dataset.ply = status.ply === undefined ? "" : String(status.ply);
  document.body.dataset.updated = String(Date.now());
  loadGames();
}

// -- the journal ---------------------------------------------------------------------

const replay = { game: null, moves: [], ply: 0 };

async function getJson(path) {
  const answer = await fetch(path, { cache: "no-store" });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.problem || answer.statusText);
  return data;
}

let gamesShown = "";

async function loadGames() {
  let data;
  try {
    data = await getJson("/api/games");
  } catch (error) {
    return;
  }
  const key = JSON.stringify(data.games);
  if (key === gamesShown) return;
  gamesShown = key;
  const body = $("games").querySelector("tbody");
  body.replaceChildren();
  for (const game of data.games) {
    const row = body.insertRow();
    row.dataset.game = String(game.id);
    row.classList.toggle("chosen", game.id === replay.game);
    for (const cell of [game.id, game.game, game.status, game.actions, resultWords(game.outcome, game.players)]) {
      row.insertCell().textContent = String(cell);
    }
    row.addEventListener("click", () => openGame(game.id));
  }
}

async function openGame(gameId) {
  const data = await getJson(`/api/games/${gameId}`);
  replay.game = gameId;
  replay.moves = data.moves;
  for (const row of $("games").querySelectorAll("tbody tr")) {
    row.classList.toggle("chosen", row.dataset.game === String(gameId));
  }
  $("replay").hidden = false;
  $("replay-title").textContent = `game ${gameId}, ${data.moves.length} moves`;
  const list = $("moves");
  list.replaceChildren();
  for (const move of data.moves) {
    const item = document.createElement("li");
    item.textContent = move.words;
    item.addEventListener("click", () => showPly(move.ply));
    list.append(item);
  }
  $("ply").max = String(data.moves.length);
  await showPly(data.moves.length);
}

async function showPly(ply) {
  const clamped = Math.max(0, Math.min(ply, replay.moves.length));
  replay.ply = clamped;
  $("ply").value = String(clamped);
  $("ply-words").textContent = clamped === 0 ? "the start" : `move ${clamped}: ${replay.moves[clamped - 1].words}`;
  $("moves").querySelectorAll("li").forEach((item, index) => item.classList.toggle("current", index + 1 === clamped));
  const data = await getJson(`/api/games/${replay.game}/board/${clamped}`);
  if (replay.ply === clamped) drawBoard(data.board, $("replay-board"), $("replay-leds"));
}

function listen() {
  const events = new EventSource("/events");
  events.addEventListener("live", (event) => {
    $("connection").textContent = "live";
    $("connection").className = "badge";
    drawLive(JSON.parse(event.data));
  });
  events.addEventListener("error", () => {
    $("connection").textContent = "reconnecting…";
    $("connection").className = "badge off";
  });
}

$("first").addEventListener("click", () => showPly(0));
$("back").addEventListener("click", () => showPly(replay.ply - 1));
$("forward").addEventListener("click", () => showPly(replay.ply + 1));
$("last-move").addEventListener("click", () => showPly(replay.moves.length));
$("ply").addEventListener("input", (event) => showPly(Number(event.target.value)));
listen();
