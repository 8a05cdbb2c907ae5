// The simulator page: keeps the form's choices consistent with the chosen game and deck,
// starts a simulation, follows it by Server-Sent Events and shows the report.
// Text from files (deck names, errors) is set with textContent; the report is HTML the
// server rendered with every name escaped (Jinja autoescape, escaped SVG).
"use strict";

(function () {
  const form = document.getElementById("simulate-form");
  if (!form) return;
  const [game, deck, vs, baseline, baselineRow, runButton, stopButton, errorLine, warnings,
         progressBox, bar, status, result, opponentRow, fieldRow, field] =
    ["sim-game", "sim-deck", "sim-vs", "sim-baseline", "baseline-row", "sim-run", "sim-stop",
     "sim-error", "sim-warnings", "sim-progress", "sim-bar", "sim-status", "sim-result",
     "opponent-row", "field-row", "sim-field"]
      .map((id) => document.getElementById(id));
  let source = null;
  let jobId = null;

  function fits(option, wantedGame, test) {
    const optionGame = option.dataset.game;
    if (option.value === "") return true;
    if (!optionGame) return true; // an unreadable file: choosing it shows its error
    return optionGame === wantedGame && test(option.dataset.faction);
  }

  function filter(select, test) {
    let firstVisible = null;
    for (const option of select.options) {
      const shown = fits(option, game.value, test);
      option.hidden = !shown;
      option.disabled = !shown;
      if (shown && firstVisible === null) firstVisible = option;
    }
    const current = select.selectedOptions[0];
    if ((!current || current.disabled) && firstVisible) firstVisible.selected = true;
  }

  function refresh() {
    filter(deck, () => true);
    const faction = deck.selectedOptions[0] ? deck.selectedOptions[0].dataset.faction : "";
    filter(vs, (other) => !faction || other !== faction);
    filter(baseline, (other) => !faction || other === faction);
    for (const option of field.options) {  // several may be chosen: none is chosen for you
      const shown = fits(option, game.value, (other) => !faction || other !== faction);
      option.hidden = !shown;
      option.disabled = !shown;
      if (!shown) option.selected = false;
    }
    const comparing = form.elements.mode.value === "baseline";
    const playingField = form.elements.mode.value === "field";
    baselineRow.hidden = !comparing;
    baseline.disabled = !comparing;
    opponentRow.hidden = playingField;
    vs.disabled = playingField;  // a disabled select sends nothing: the field's choices go
    fieldRow.hidden = !playingField;
    field.disabled = !playingField;
    window.deckbuilderPage.showGameRules(form, game.value);  // page_tools.js
  }

  function percent(value) {
    return (100 * value).toFixed(1) + "%";
  }

  function showError(text) {
    errorLine.textContent = text;
    errorLine.hidden = !text;
  }

  // The live chart: the deck's win rate so far with its 95% band, as the games come in
  // (drawn with DOM calls from numbers; no markup is parsed).
  const SVG = "http://www.w3.org/2000/svg";
  const live = document.getElementById("sim-live");
  let points = [];

  function svgElement(name, attributes) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    return element;
  }

  function drawLive(total) {
    if (!live) return;
    const width = 480, height = 140, left = 36, bottom = 18, top = 6;
    const x = (games) => left + (width - left - 6) * games / Math.max(total, 1);
    const y = (rate) => top + (height - top - bottom) * (1 - rate);
    live.replaceChildren();
    live.setAttribute("viewBox", "0 0 " + width + " " + height);
    for (const rate of [0, 0.5, 1]) {
      live.append(svgElement("line", {x1: left, x2: width - 6, y1: y(rate), y2: y(rate),
                                      class: "grid"}));
      const label = svgElement("text", {x: left - 4, y: y(rate) + 4, "text-anchor": "end"});
      label.textContent = (100 * rate) + "%";
      live.append(label);
    }
    if (!points.length) return;
    const band = points.map((p) => x(p.games) + "," + y(p.high))
      .concat(points.slice().reverse().map((p) => x(p.games) + "," + y(p.low)));
    live.append(svgElement("polygon", {points: band.join(" "), class: "band"}));
    const line = points.map((p, i) => (i ? "L" : "M") + x(p.games) + " " + y(p.estimate));
    live.append(svgElement("path", {d: line.join(" "), class: "estimate"}));
    const last = points[points.length - 1];
    live.append(svgElement("circle", {cx: x(last.games), cy: y(last.estimate), r: 3,
                                      class: "estimate"}));
  }

  function showProgress(data) {
    progressBox.hidden = false;
    bar.max = data.total;
    bar.value = data.played;
    if (data.win_rate) {
      const last = points[points.length - 1];
      if (!last || last.games !== data.games) {
        points.push({games: data.games, estimate: data.win_rate.estimate,
                     low: data.win_rate.low, high: data.win_rate.high});
      }
    }
    // the deck's own games (a baseline comparison plays as many again for the baseline)
    drawLive(form.elements.mode.value === "baseline" ? data.total / 2 : data.total);
    let text = data.played + " of " + data.total + " games played";
    if (data.win_rate) {
      const rate = data.win_rate;
      text += "; the deck wins " + percent(rate.estimate) + " [" + percent(rate.low) +
        ", " + percent(rate.high) + "] (" + data.wins + "/" + data.games + ")";
    }
    if (data.baseline_win_rate) {
      const rate = data.baseline_win_rate;
      text += "; the baseline " + percent(rate.estimate) + " [" + percent(rate.low) + ", " +
        percent(rate.high) + "]";
    }
    status.textContent = text;
  }

  function finish() {
    if (source) source.close();
    source = null;
    runButton.disabled = false;
    stopButton.disabled = true;
  }

  function follow(url) {
    points = [];
    source = new EventSource(url);
    source.addEventListener("progress", (event) => showProgress(JSON.parse(event.data)));
    source.addEventListener("done", (event) => {
      const data = JSON.parse(event.data);
      showProgress(data);
      status.textContent += " — done.";
      // server-rendered and escaped: the same tables and SVG charts as `--report`
      result.replaceChildren(document.createRange().createContextualFragment(data.html));
      finish();
    });
    source.addEventListener("cancelled", (event) => {
      showProgress(JSON.parse(event.data));
      status.textContent += " — stopped.";
      finish();
    });
    source.addEventListener("failed", (event) => {
      showError(JSON.parse(event.data).error);
      finish();
    });
    source.onerror = () => {
      if (source && source.readyState === EventSource.CLOSED) {
        showError("the connection to the server was lost");
        finish();
      }
    };
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    warnings.replaceChildren();
    runButton.disabled = true;
    let response;
    try {
      response = await fetch("/api/simulate", {method: "POST", body: new FormData(form),
                                               headers: {"Accept": "application/json"}});
    } catch (error) {
      showError("the server cannot be reached: " + error);
      runButton.disabled = false;
      return;
    }
    const data = await response.json();
    if (!response.ok) {
      showError(data.error || ("the server answered " + response.status));
      runButton.disabled = false;
      return;
    }
    for (const text of data.warnings) {
      const item = document.createElement("li");
      item.className = "warning-line";
      item.textContent = "warning: " + text;
      warnings.append(item);
    }
    jobId = data.job;
    result.replaceChildren();
    showProgress({played: 0, total: data.total});
    stopButton.disabled = false;
    follow(data.events);
  });

  stopButton.addEventListener("click", () => {
    if (jobId) fetch("/api/simulate/" + jobId + "/cancel", {method: "POST"});
    // the stream stays open for the "cancelled" event; closing it stops the games too
  });

  window.addEventListener("pagehide", () => {
    if (source) {
      source.close();
      if (jobId) navigator.sendBeacon("/api/simulate/" + jobId + "/cancel");
    }
  });

  for (const element of [game, deck]) element.addEventListener("change", refresh);
  for (const radio of form.elements.mode) radio.addEventListener("change", refresh);
  refresh();
})();
