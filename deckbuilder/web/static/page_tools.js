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

  return {showError: showError, request: request, requestJson: requestJson,
          fromServer: fromServer};
})();
