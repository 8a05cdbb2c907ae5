// The game table: the new-game form, and the table itself (the person's actions as
// buttons, or Step / Auto-play while two bots play). The board and the buttons are HTML the
// server rendered with every name escaped; log lines from the server are set as textContent.
"use strict";

(function () {
  const {showError, requestJson, newGameForm, logItem, fromServer} = window.deckbuilderPage;  // page_tools.js

  function post(url, body, headers) {
    return requestJson(url, {method: "POST", body: body, headers: headers || {}});
  }

  // -- the new-game form ---------------------------------------------------------------------
  newGameForm("play", "play-start", (fieldset, side, human) => {
    const bot = fieldset.querySelector(".side-bot");
    bot.hidden = human;
    bot.querySelector("input").disabled = human;
    fieldset.querySelector(".side-you").hidden = !human;
  }, async (form) => (await post("/api/play", new FormData(form))).url);

  // -- the table -----------------------------------------------------------------------------
  const table = document.getElementById("table");
  if (!table) return;
  const session = table.dataset.session;
  const board = document.getElementById("board");
  const actions = document.getElementById("actions");
  const log = document.getElementById("log");
  const errorLine = document.getElementById("table-error");
  let busy = false;
  let over = Boolean(document.getElementById("outcome"));
  let auto = false;

  function addLog(lines, segments) {
    lines.forEach((line, index) => {
      log.append(logItem(line, segments && segments[index], table.dataset.game));
    });
    log.scrollTop = log.scrollHeight;
  }

  function update(state) {
    if (state.reset_log) log.replaceChildren();  // a move taken back: the log as it now stands
    board.replaceChildren(fromServer(state.board));
    actions.replaceChildren(fromServer(state.actions));
    addLog(state.log, state.log_segments);
    over = state.over;
    if (over) auto = false;
    const autoButton = document.getElementById("watch-auto");
    if (autoButton) autoButton.textContent = auto ? "Pause" : "Auto-play";
  }

  async function send(url, body, headers) {
    if (busy) return false;
    busy = true;
    for (const button of actions.querySelectorAll("button")) button.disabled = true;
    showError(errorLine, "");
    try {
      update(await post(url, body, headers));
      return true;
    } catch (error) {
      showError(errorLine, error.message);
      for (const button of actions.querySelectorAll("button")) button.disabled = false;
      auto = false;
      return false;
    } finally {
      busy = false;
    }
  }

  function step(count) {
    const body = new FormData();
    body.set("steps", String(count));
    return send("/api/play/" + session + "/step", body);
  }

  async function autoPlay() {
    while (auto && !over) {
      const ok = await step(1);
      if (!ok) break;
      const speed = document.getElementById("watch-speed");
      await new Promise((resolve) => setTimeout(resolve, speed ? Number(speed.value) : 200));
    }
    auto = false;
    const autoButton = document.getElementById("watch-auto");
    if (autoButton) autoButton.textContent = "Auto-play";
  }

  actions.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    if (button.dataset.action !== undefined) {
      send("/api/play/" + session + "/act", JSON.stringify({action: Number(button.dataset.action)}),
           {"Content-Type": "application/json"});
    } else if (button.id === "take-back") {
      send("/api/play/" + session + "/take-back", null);
    } else if (button.id === "watch-auto") {
      auto = !auto;
      button.textContent = auto ? "Pause" : "Auto-play";
      if (auto) autoPlay();
    } else if (button.dataset.steps) {
      step(Number(button.dataset.steps));
    }
  });
  log.scrollTop = log.scrollHeight;
})();
