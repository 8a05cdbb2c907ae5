// The replay viewer: step forward and back (buttons, the left and right arrows, Home and
// End), jump to a turn, switch whose view is shown. The board is HTML the server rendered
// with every name escaped; log lines from the server are set as textContent. Without the
// script every control is a link (or a form) that loads the page at that step.
"use strict";

(function () {
  const {showError, requestJson: getJson, submitBy, logPieces, logItem,
         fromServer} =
    window.deckbuilderPage;  // page_tools.js

  // -- the upload form -----------------------------------------------------------------------
  const uploadForm = document.getElementById("replay-upload");
  if (uploadForm) {
    submitBy(uploadForm, document.getElementById("replay-open"),
             document.getElementById("replay-error"), async () => {
               const body = new FormData(uploadForm);
               return (await getJson("/api/replays", {method: "POST", body: body})).url;
             });
  }

  // -- the viewer ----------------------------------------------------------------------------
  const root = document.getElementById("replay");
  if (!root) return;
  const replayId = root.dataset.replay;
  const game = root.dataset.game || "";
  const last = Number(root.dataset.last);
  const board = document.getElementById("board");
  const log = document.getElementById("log");
  const errorLine = document.getElementById("replay-error");
  let step = Number(root.dataset.step);
  let viewer = root.dataset.viewer;
  let wanted = null;  // the latest step asked for while a request is under way
  let busy = false;

  function showLog() {
    let current = null;
    for (const item of log.children) {
      const lineStep = Number(item.dataset.step);
      item.hidden = lineStep >= step;
      item.classList.toggle("current", lineStep === step - 1);
      if (lineStep === step - 1 && !current) current = item;
    }
    const shown = current || [...log.children].filter((item) => !item.hidden).pop();
    if (shown) log.scrollTop = Math.max(0, shown.offsetTop - log.offsetTop - log.clientHeight / 2);
  }

  function fillLog(data) {
    const items = data.lines.map((line) => {
      const item = logItem(line.text, line.segments, game);
      item.dataset.step = String(line.step);
      return item;
    });
    log.replaceChildren(...items);
    const heading = log.closest("aside").querySelector("h2 .muted");
    if (heading) heading.textContent = "(as " + (viewer === "everything" ? "everyone" : viewer) + " read it)";
  }

  function link(id, target) {
    const element = document.getElementById(id);
    element.dataset.step = String(target);
    element.href = "?step=" + target + "&viewer=" + encodeURIComponent(viewer);
  }

  function show(data) {
    step = data.step;
    board.replaceChildren(fromServer(data.board));
    document.getElementById("replay-step").textContent = String(step);
    document.getElementById("replay-turn").textContent =
      data.turn === 0 ? "before the first turn" : "turn " + data.turn;
    const done = document.getElementById("replay-done");
    done.textContent = data.done
      ? "step " + data.done.index + ": " + (data.done.player || "") + " " +
        (data.done.action || "(a decision this viewer does not see)")
      : "the set-up: the opening hands are dealt";
    const whole = document.getElementById("replay-whole");
    whole.hidden = data.whole.length === 0;
    const wholeLines = document.getElementById("replay-whole-lines");
    wholeLines.replaceChildren(...data.whole.map((pieces) => {
      const item = document.createElement("li");
      logPieces(item, pieces, game);
      return item;
    }));
    link("replay-first", 0);
    link("replay-back", Math.max(step - 1, 0));
    link("replay-next", Math.min(step + 1, last));
    link("replay-end", last);
    const select = document.getElementById("replay-turn-select");
    let chosen = null;
    for (const option of select.options) if (Number(option.value) <= step) chosen = option;
    if (chosen) select.value = chosen.value;
    for (const button of root.querySelectorAll("a.viewer")) {
      const mine = button.dataset.viewer === viewer;
      button.classList.toggle("secondary", !mine);
      if (mine) button.setAttribute("aria-current", "true"); else button.removeAttribute("aria-current");
      button.href = "?step=" + step + "&viewer=" + encodeURIComponent(button.dataset.viewer);
    }
    root.dataset.step = String(step);
    root.dataset.viewer = viewer;
    showLog();
    history.replaceState(null, "", "?step=" + step + "&viewer=" + encodeURIComponent(viewer));
  }

  function stepUrl(target) {
    return "/api/replays/" + replayId + "/step?step=" + target + "&viewer=" + encodeURIComponent(viewer);
  }

  async function goTo(target, newViewer) {
    target = Math.max(0, Math.min(last, target));
    if (busy) {  // keys held down: go to the latest one asked for once this one is shown
      wanted = target;
      return;
    }
    busy = true;
    showError(errorLine, "");
    try {
      if (newViewer && newViewer !== viewer) {
        viewer = newViewer;
        fillLog(await getJson("/api/replays/" + replayId + "/log?viewer=" + encodeURIComponent(viewer)));
      }
      show(await getJson(stepUrl(target)));
    } catch (error) {
      showError(errorLine, error.message);
    } finally {
      busy = false;
    }
    if (wanted !== null) {
      const next = wanted;
      wanted = null;
      if (next !== step) goTo(next);
    }
  }

  root.addEventListener("click", (event) => {
    const anchor = event.target.closest("a[data-step], a.viewer");
    if (!anchor || !root.contains(anchor)) return;
    event.preventDefault();
    if (anchor.classList.contains("viewer")) goTo(step, anchor.dataset.viewer);
    else goTo(Number(anchor.dataset.step));
  });
  document.getElementById("replay-turn-select").addEventListener("change", (event) => {
    goTo(Number(event.target.value));
  });
  document.getElementById("replay-jump").addEventListener("submit", (event) => {
    event.preventDefault();
    goTo(Number(document.getElementById("replay-turn-select").value));
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && target.closest && target.closest("input, select, textarea")) return;
    const from = wanted !== null ? wanted : step;
    const moves = {ArrowLeft: from - 1, ArrowRight: from + 1, Home: 0, End: last};
    if (!(event.key in moves)) return;
    event.preventDefault();
    goTo(moves[event.key]);
  });
  showLog();
  root.dataset.ready = "true";  // the keys work from now on (the tests wait for it)
})();
