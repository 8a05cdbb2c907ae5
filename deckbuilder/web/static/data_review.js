/* "Confirm card data" (/data): save one value in place. Each value is a form that also works
   without this script (a POST answered with a redirect); here it is sent as JSON to
   /api/data/answer, the card is replaced by the server's new HTML (the value now marked as
   confirmed by a player), the progress line is updated, and a refusal is shown beside the
   input. The name the player gives is kept in this browser for the next visit. */
(function () {
  "use strict";
  var NAME_KEY = "deckbuilder.reviewer";
  var list = document.getElementById("data-card-list");
  var playerInput = document.getElementById("data-player");

  function storage() {
    try { return window.localStorage; } catch (error) { return null; }
  }

  if (playerInput) {
    var kept = storage() && storage().getItem(NAME_KEY);
    if (!playerInput.value && kept) { playerInput.value = kept; }
    playerInput.addEventListener("change", function () {
      var store = storage();
      if (store) { store.setItem(NAME_KEY, playerInput.value.trim()); }
    });
  }
  if (!list) { return; }

  function field(form, name) {
    var element = form.elements.namedItem(name);
    return element && "value" in element ? String(element.value) : "";
  }

  function show(form, text, kind) {
    var message = form.querySelector(".data-edit__message");
    if (!message) { return; }
    message.textContent = text;
    message.classList.toggle("error", kind === "error");
    message.classList.toggle("saved", kind === "saved");
    var input = form.elements.namedItem("value");
    if (input && input.setAttribute) {
      if (kind === "error") { input.setAttribute("aria-invalid", "true"); }
      else { input.removeAttribute("aria-invalid"); }
    }
  }

  function setBusy(form, busy) {
    Array.prototype.forEach.call(form.querySelectorAll("button"), function (button) {
      button.disabled = busy;
    });
  }

  function updateProgress(progress) {
    if (!progress) { return; }
    var line = document.getElementById("data-progress");
    var bar = document.getElementById("data-progress-bar");
    if (line) { line.textContent = progress.text; }
    if (bar) { bar.max = progress.total; bar.value = progress.reviewed; }
  }

  function replaceCard(id, html, field) {
    var old = document.getElementById("card-" + id);
    if (!old) { return null; }
    /* the server's fragment (templates and card_face.face_html escape every text) */
    var card = document.createRange().createContextualFragment(html).firstElementChild;
    if (!card) { return null; }
    old.replaceWith(card);
    return card.querySelector('form.data-edit[data-field="' + field + '"]');
  }

  list.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("data-edit")) { return; }
    event.preventDefault();
    var submitter = event.submitter;
    var action = submitter && submitter.value ? submitter.value : "save";
    var body = {
      id: field(form, "id"), field: field(form, "field"), value: field(form, "value"),
      action: action, cards: field(form, "cards"),
      player: playerInput ? playerInput.value.trim() : field(form, "player")
    };
    setBusy(form, true);
    show(form, "saving…", "");
    fetch("/api/data/answer", {
      method: "POST",
      headers: {"content-type": "application/json", "accept": "application/json"},
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (data) { return {ok: response.ok, data: data}; });
    }).then(function (result) {
      if (!result.ok) {
        setBusy(form, false);
        show(form, "not saved: " + (result.data.error || "the server refused it"), "error");
        var input = form.elements.namedItem("value");
        if (input && input.focus) { input.focus(); }
        return;
      }
      var saved = result.data.saved;
      var again = replaceCard(saved.id, result.data.card, saved.field);
      updateProgress(result.data.progress);
      if (again) {
        var said = "saved: " + saved.after + (saved.before !== saved.after ? " (was " + saved.before + ")" : " (as shown)");
        if (saved.alias) { said += "; the old name stays an alias: " + saved.alias; }
        show(again, said, "saved");
        var next = again.parentElement && again.closest(".data-card");
        var forms = next ? next.querySelectorAll("form.data-edit:not(.data-edit--player)") : [];
        var focus = forms.length ? forms[0] : again;
        var target = focus.querySelector("input[type=text], select, button");
        if (target) { target.focus({preventScroll: false}); }
      }
    }).catch(function () {
      setBusy(form, false);
      show(form, "not saved: the server did not answer", "error");
    });
  });
})();
