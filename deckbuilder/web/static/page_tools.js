// What every page's script needs alike (base.html loads this first): a one-line error shown
// or cleared, a JSON request whose failure is the server's one line, a form sent by script,
// the server's own rendered HTML put in place, and a log line with its card names.
"use strict";

window.deckbuilderPage = (function () {
  function showError(element, text) {
    if (!element) return;
    element.textContent = text;
    element.hidden = !text;
  }

  // The answer as {ok, status, data}; a body that is not JSON reads as the status line.
  async function request(url, options) {
    const settings = Object.assign({}, options || {});
    settings.headers = Object.assign({"Accept": "application/json"}, settings.headers || {});
    const response = await fetch(url, settings);
    let data = {};
    try {
      data = await response.json();
    } catch (error) {
      data = {error: "the server answered " + response.status};
    }
    return {ok: response.ok, status: response.status, data: data};
  }

  // The data of a request that succeeded; an Error with the server's one line otherwise.
  async function requestJson(url, options) {
    const answer = await request(url, options);
    if (!answer.ok) {
      throw new Error(answer.data.error || ("the server answered " + answer.status));
    }
    return answer.data;
  }

  // A form sent by script: `send()` gives the address to open next, or throws the one line
  // to show; the button is off while it runs.
  function submitBy(form, button, errorLine, send) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      showError(errorLine, "");
      button.disabled = true;
      try {
        window.location.assign(await send());
      } catch (error) {
        showError(errorLine, error.message);
        button.disabled = false;
      }
    });
  }

  // A log line's pieces, [text, record id or ""], into `element`: a named record shows its
  // face (faces.js) from `game`.
  function logPieces(element, pieces, game) {
    for (const [text, recordId] of pieces) {
      if (!recordId) {
        element.append(document.createTextNode(text));
        continue;
      }
      const name = document.createElement("span");
      name.dataset.face = recordId;
      name.dataset.game = game || "";
      name.textContent = text;
      element.append(name);
    }
  }

  // One log line as a list item, a turn's first line marked (pieces: the plain line).
  function logItem(line, pieces, game) {
    const item = document.createElement("li");
    if (line.startsWith("--")) item.className = "turn-line";
    logPieces(item, pieces || [[line, ""]], game);
    return item;
  }

  // Only the chosen game's rules fieldset shows (a disabled fieldset's fields are not sent).
  function showGameRules(form, game) {
    for (const fieldset of form.querySelectorAll(".game-rules")) {
      const mine = fieldset.dataset.game === game;
      fieldset.hidden = !mine;
      fieldset.disabled = !mine;
    }
  }

  function fromServer(html) {
    // the server's own rendered fragment (autoescaped templates), not text from a file
    return document.createRange().createContextualFragment(html);
  }

  // A new-game form follows its game: the seat offers that game's sides, each side's deck
  // list its decks (the base deck chosen when the chosen one is not), the rules fieldset is
  // the game's; `eachSide(fieldset, side, isTheSeat)` adds what one page shows per side.
  function followGame(form, game, seat, eachSide) {
    const refresh = () => {
      const sides = game.selectedOptions[0].dataset.sides.split(",");
      for (const option of seat.options) {
        const shown = !option.dataset.game || option.dataset.game === game.value;
        option.hidden = !shown;
        option.disabled = !shown;
      }
      if (seat.selectedOptions[0].disabled) seat.value = sides[0];
      for (const fieldset of form.querySelectorAll(".play-side")) {
        const side = sides[Number(fieldset.dataset.player)];
        fieldset.querySelector(".side-name").textContent = side;
        const deck = fieldset.querySelector(".side-deck");
        let base = null;
        for (const option of deck.options) {
          const readable = Boolean(option.dataset.game);
          const shown = !readable || (option.dataset.game === game.value &&
                                      option.dataset.faction === side);
          option.hidden = !shown;
          option.disabled = !shown;
          if (option.value === "base:" + side) base = option;
        }
        if ((!deck.selectedOptions[0] || deck.selectedOptions[0].disabled) && base) {
          base.selected = true;
        }
        eachSide(fieldset, side, seat.value === side);
      }
      showGameRules(form, game.value);
    };
    game.addEventListener("change", refresh);
    seat.addEventListener("change", refresh);
    refresh();
  }

  // A new-game form (ids `<prefix>-form`, `-game`, `-seat`, `-error`) follows its game and is
  // sent by `send(form)`, which gives the address of the game made.
  function newGameForm(prefix, buttonId, eachSide, send) {
    const form = document.getElementById(prefix + "-form");
    if (!form) return;
    const [game, seat, errorLine] =
      ["-game", "-seat", "-error"].map((end) => document.getElementById(prefix + end));
    followGame(form, game, seat, eachSide);
    submitBy(form, document.getElementById(buttonId), errorLine, () => send(form));
  }

  return {showError: showError, request: request, requestJson: requestJson, submitBy: submitBy,
          logPieces: logPieces, logItem: logItem, showGameRules: showGameRules,
          fromServer: fromServer, newGameForm: newGameForm};
})();
