// The venue's page: every table the broker tells of, tables needing staff first.
// Every text is set with textContent: what a table says is never read as HTML.
"use strict";

const $ = (id) => document.getElementById(id);

function fact(list, term, value) {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  dd.textContent = value === undefined || value === null || value === "" ? "–" : String(value);
  list.append(dt, dd);
}

function resultWords(outcome, players) {
  if (!outcome) return "";
  const names = (outcome.winners || []).map((seat) => players[seat] || `seat ${seat + 1}`);
  return (names.length ? `${names.join(", ")} won` : "no winner") + ` (${outcome.reason})`;
}

function seats(row) {
  const box = document.createElement("div");
  box.className = "seats";
  row.players.forEach((name, seat) => {
    const one = document.createElement("span");
    one.className = "seat" + (name === row.turn ? " turn" : "");
    const dot = document.createElement("span");
    dot.className = "led";
    const colour = row.seat_colours[seat];
    if (colour && colour !== "#000000") dot.style.background = colour;
    const label = document.createElement("span");
    label.textContent = name;
    one.append(dot, label);
    box.append(one);
  });
  return box;
}

function card(row) {
  const box = document.createElement("section");
  box.className = "card" + (row.needs.length ? " staff" : "");
  box.setAttribute("aria-label", `table ${row.table}`);
  const head = document.createElement("h2");
  const name = document.createElement("span");
  name.textContent = `${row.venue} / ${row.table}`;
  const badge = document.createElement("span");
  badge.className = "badge" + (!row.online ? " off" : row.needs.length ? " warn" : "");
  badge.textContent = !row.online ? "offline" : row.needs.length ? "needs staff" : "playing";
  head.append(name, badge);
  box.append(head);
  if (row.needs.length) {
    const needs = document.createElement("ul");
    needs.className = "needs";
    for (const reason of row.needs) {
      const item = document.createElement("li");
      item.textContent = reason;
      needs.append(item);
    }
    box.append(needs);
  }
  box.append(seats(row));
  const facts = document.createElement("dl");
  fact(facts, "game", row.game ? `${row.game} #${row.game_id ?? "?"}, move ${row.ply ?? 0}` : "");
  fact(facts, "turn", row.turn);
  fact(facts, "waiting for", row.waiting);
  fact(facts, "last", row.last);
  if (row.outcome) fact(facts, "result", resultWords(row.outcome, row.players));
  fact(facts, "heard", row.age === null ? "" : `${Math.round(row.age)} s ago`);
  box.append(facts);
  if (row.lines.length) {
    const board = document.createElement("pre");
    board.textContent = row.lines.join("\n");
    box.append(board);
  }
  return box;
}

function draw(view) {
  $("title").textContent = view.venue ? `cogtable venue ${view.venue}` : "cogtable venue";
  const broker = $("broker");
  broker.hidden = view.connected;
  broker.textContent = view.connected ? "" : "broker away";
  const staff = view.tables.filter((row) => row.needs.length).length;
  $("summary").textContent = `${view.tables.length} tables, ${staff} needing staff`;
  $("empty").hidden = view.tables.length > 0;
  $("tables").replaceChildren(...view.tables.map(card));
}

function listen() {
  const badge = $("connection");
  const events = new EventSource("/events");
  events.addEventListener("venue", (event) => {
    badge.textContent = "live";
    badge.className = "badge";
    draw(JSON.parse(event.data));
  });
  events.onerror = () => {
    badge.textContent = "reconnecting…";
    badge.className = "badge warn";
  };
}

listen();
