// What every page's script needs alike (base.html loads this first): a one-line error shown
// or cleared, a JSON request whose failure is the server's one line, and the server's own
// rendered HTML put in place.
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
      for (const fieldset of form.querySelectorAll(".game-rules")) {
        const mine = fieldset.dataset.game === game.value;
        fieldset.hidden = !mine;
        fieldset.disabled = !mine;
      }
    };
    game.addEventListener("change", refresh);
    seat.addEventListener("change", refresh);
    refresh();
  }

  return {showError: showError, request: request, requestJson: requestJson,
          fromServer: fromServer, followGame: followGame};
})();
