// A friend table: the form that makes one, and the table a link opens. The table listens to
// the server's events (Server-Sent Events, or asking every two seconds when they fail) and
// draws its own seat's state; an action names the step it answers, so a second click or an
// old view is refused by the server (and the fresh state drawn). The board and the buttons
// are HTML the server rendered with every name escaped; log lines, notices and the deal are
// set as textContent. The friend's seat is taken by its invitation (the invitation's page, a
// POST); in the one-screen mode this page takes it itself, on purpose, for the second person.
"use strict";

(function () {
  const SHARED = "deckbuilder-one-screen:";  // sessionStorage: a one-screen table's tokens
  const POLL_MS = 2000;
  const MOST_STREAM_FAILURES = 3;

  const {showError, request, newGameForm, logItem, fromServer} = window.deckbuilderPage;  // page_tools.js

  // -- the form that makes a table -----------------------------------------------------------
  newGameForm("friend", "friend-create", (fieldset, side, mine) => {
    fieldset.querySelector(".side-you").hidden = !mine;
    fieldset.querySelector(".side-friend").hidden = mine;
  }, async (form) => {
    const answer = await request("/api/tables", {method: "POST", body: new FormData(form)});
    const oneScreen = document.getElementById("friend-one-screen").checked;
    const shared = answer.ok && oneScreen ? await takeBothSeats(answer.data) : answer;
    if (!shared.ok) throw new Error(shared.data.error || ("the server answered " + shared.status));
    return answer.data.url;
  });

  async function takeBothSeats(made) {
    // two people at this screen: this tab takes the second seat by its invitation and keeps
    // both seats' tokens (never in the server's pages or the address bar), and hands the
    // screen over between their turns
    const friend = made.invitation;
    const taken = await request("/api/tables/" + encodeURIComponent(made.tokens[friend]) +
                                "/join", {method: "POST", body: "{}",
                                          headers: {"Content-Type": "application/json"}});
    if (taken.ok) {
      const tokens = {[made.seat]: made.token, [friend]: taken.data.seat_token};
      sessionStorage.setItem(SHARED + made.table, JSON.stringify(tokens));
    }
    return taken;
  }

  // -- the table -------------------------------------------------------------------------------
  const table = document.getElementById("table");
  if (!table || !table.classList.contains("friend-table")) return;
  const api = "/api/tables/" + table.dataset.token;
  const board = document.getElementById("board");
  const actions = document.getElementById("actions");
  const log = document.getElementById("log");
  const seats = document.getElementById("seats");
  const errorLine = document.getElementById("table-error");
  let known = Number(table.dataset.logNext);  // log events on the page
  let version = Number(table.dataset.version);
  let over = Boolean(document.getElementById("outcome"));
  let busy = false;
  let stream = null;
  let poller = null;

  function addLogEvents(state) {
    const events = (state.html && state.html.log_events) || [];
    events.slice(Math.max(0, known - state.log_start)).forEach((event) => {
      event.lines.forEach((line, index) => {
        log.append(logItem(line, event.segments[index], table.dataset.game));
      });
    });
    known = Math.max(known, state.log_next);
    log.scrollTop = log.scrollHeight;
  }

  function drawNotices(state) {
    // a seat played from a device or browser new to it: both seats are told
    const lines = (state.notices || []).map((notice) => {
      const line = document.createElement("p");
      line.className = "error-line seat-notice";
      line.setAttribute("role", "alert");
      line.textContent = notice;
      return line;
    });
    document.getElementById("notices").replaceChildren(...lines);
  }

  function drawLinks(state) {
    // the invitation goes once it is spent; at the end, the seed behind the commitment
    const invitations = document.getElementById("invitations");
    if (invitations && !state.invitations) invitations.remove();
    const deal = document.getElementById("deal");
    if (!state.commitment || state.seed === undefined || document.getElementById("deal-seed")) {
      return;
    }
    const parts = [["The deal's commitment: ", ""], [state.commitment, "commitment"],
                   ["; the seed was ", ""], [String(state.seed), "deal-seed"],
                   [", salt ", ""], [String(state.seed_salt), "deal-salt"],
                   [": check them with ", ""],
                   ["deckbuilder replay RECORD --check-deal " + state.commitment, "check"],
                   [".", ""]];
    deal.replaceChildren(...parts.map(([text, kind]) => {
      if (!kind) return document.createTextNode(text);
      const code = document.createElement("code");
      if (kind === "commitment") code.className = kind;
      else if (kind !== "check") code.id = kind;
      code.textContent = text;
      return code;
    }));
  }

  function drawSeats(state) {
    const parts = [];
    for (const [side, seat] of Object.entries(state.seats)) {
      const span = document.createElement("span");
      span.className = "seat-presence";
      span.dataset.side = side;
      span.textContent = side + ": " + (!seat.joined ? "not joined yet"
                                        : seat.present ? "at the table" : "away");
      parts.push(span);
    }
    seats.replaceChildren(...parts.flatMap((span, index) =>
      index ? [document.createTextNode(" · "), span] : [span]));
  }

  const shared = JSON.parse(sessionStorage.getItem(SHARED + table.dataset.table) || "null");

  function passDevice(state) {
    // one screen: when the other seat is to move, hide this seat's table and hand over
    const next = state.to_move;
    if (!shared || state.over || state.your_turn || !next || !shared[next]) return false;
    table.hidden = true;
    document.getElementById("pass-device-to").textContent = next;
    document.getElementById("pass-device-who").textContent = next;
    const dialog = document.getElementById("pass-device");
    dialog.hidden = false;
    document.getElementById("pass-device-continue").onclick = () => {
      window.location.replace("/friends/" + encodeURIComponent(shared[next]));
    };
    document.getElementById("pass-device-continue").focus();
    return true;
  }

  function update(state) {
    if (!state || state.version < version) return;  // an older answer arriving late
    if (passDevice(state)) return;
    version = state.version;
    // the decision already drawn (this page's own move echoed by the stream, a seat that came
    // or went) keeps its buttons: a choice the keyboard is on keeps the focus and its Enter
    const sameDecision = state.your_turn && String(state.step) === table.dataset.step &&
                         actions.querySelector(".decision");
    table.dataset.step = String(state.step);
    board.replaceChildren(fromServer(state.html.board));
    if (!sameDecision) actions.replaceChildren(fromServer(state.html.actions));
    addLogEvents(state);
    drawSeats(state);
    drawNotices(state);
    drawLinks(state);
    over = state.over;
    if (over) stopListening();
  }

  function stopListening() {
    if (stream) stream.close();
    stream = null;
    if (poller) clearInterval(poller);
    poller = null;
  }

  async function poll() {
    const answer = await request(api + "?html=1&since=" + known);
    if (answer.ok) update(answer.data);
  }

  function listen() {
    if (over) return;
    if (!window.EventSource) {
      poller = setInterval(poll, POLL_MS);
      return;
    }
    let failures = 0;
    stream = new EventSource(api + "/events?html=1&since=" + known);
    stream.addEventListener("state", (event) => {
      failures = 0;
      update(JSON.parse(event.data));
    });
    stream.addEventListener("error", () => {
      failures += 1;
      if (failures >= MOST_STREAM_FAILURES && !over) {  // no events here: ask instead
        stopListening();
        poller = setInterval(poll, POLL_MS);
      }
    });
  }

  async function send(path, body) {
    if (busy) return;
    busy = true;
    for (const button of actions.querySelectorAll("button")) button.disabled = true;
    showError(errorLine, "");
    try {
      const answer = await request(api + path + "?html=1&since=" + known, {
        method: "POST", body: JSON.stringify(body),
        headers: {"Accept": "application/json", "Content-Type": "application/json"}});
      if (!answer.ok) showError(errorLine, answer.data.error || "the server answered " +
                                           answer.status);
      update(answer.data.state || (answer.ok ? answer.data : null));
    } catch (error) {
      showError(errorLine, "the server cannot be reached: " + error.message);
    } finally {
      for (const button of actions.querySelectorAll("button")) button.disabled = false;
      busy = false;
    }
  }

  actions.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    if (button.dataset.action !== undefined) {
      send("/act", {step: Number(button.dataset.step), action: Number(button.dataset.action)});
    } else if (button.id === "resign") {
      if (window.confirm("Resign this game? Your friend wins, and the table ends.")) {
        send("/resign", {});
      }
    }
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button.copy-link");
    if (!button) return;
    const field = document.getElementById(button.dataset.target);
    field.select();
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).catch(() => {});
    button.textContent = "Copied";
  });

  log.scrollTop = log.scrollHeight;
  listen();
})();
