// The deck editor's clicks: every change goes to the server, which answers with the deck,
// the Module D verdict and two pieces of the page rendered by its (autoescaping) templates.
// Text from the server that is not one of those pieces is written with textContent only.
"use strict";

(function () {
  const editor = document.getElementById("editor");
  if (!editor) return;
  let state = JSON.parse(editor.dataset.state || "null");
  const $ = (id) => document.getElementById(id);
  const errorBox = $("deck-error");

  function showError(text) {
    errorBox.textContent = text || "";
    errorBox.classList.toggle("hidden", !text);
  }

  // Pieces rendered by the server's templates (every value escaped there).
  function putPiece(element, html) {
    const range = document.createRange();
    range.selectNodeContents(element);
    element.replaceChildren(range.createContextualFragment(html));
  }

  async function call(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: {"content-type": "application/json", "accept": "application/json"},
        body: JSON.stringify(body),
      });
    } catch (problem) {
      showError("the server cannot be reached: is `deckbuilder serve` still running?");
      return null;
    }
    let data = null;
    try { data = await response.json(); } catch (problem) { data = null; }
    if (!response.ok) {
      showError(data && data.error ? data.error : `the server answered ${response.status}`);
      return data && (data.deck || data.lines || data.conflict) ? data : null;
    }
    showError("");
    return data;
  }

  // The bar at the top of the editor: the card count and the verdict of the pieces shown,
  // in view while the list scrolls; its verdict leads to the reasons.
  function showBar() {
    const total = $("deck-total");
    const word = $("verdict-word");
    const verdict = $("bar-verdict");
    const violations = document.querySelectorAll("#verdict .violation").length;
    $("deck-bar").classList.toggle("hidden", !state);
    $("bar-total").textContent = total ? total.textContent : "";
    verdict.textContent = word ? word.textContent : "";
    verdict.className = word ? word.className : "verdict";
    $("bar-why").textContent = violations
      ? `${violations} violation${violations === 1 ? "" : "s"}` : "";
  }

  function collection() { return $("collection").value || null; }

  function apply(data) {
    if (!data || !data.deck) return;
    state = data.deck;
    editor.classList.remove("hidden");
    putPiece($("deck-table"), data.html.deck);
    putPiece($("verdict"), data.html.verdict);
    showBar();
    if (data.html.stats !== undefined) { putPiece($("stats"), data.html.stats); chooseOdds(); }
    $("sheet-link").href = data.sheet;
    if (document.activeElement !== $("deck-name")) $("deck-name").value = state.name;
    if (state.file) $("save-name").value = state.file;
    const share = new URL(data.share, window.location.href);
    if (state.file) share.searchParams.set("file", state.file);
    // the version of the file the deck came from: Save refuses to undo a change made since
    if (state.file && state.version) share.searchParams.set("version", state.version);
    if (collection()) share.searchParams.set("collection", collection());
    $("share-link").value = share.href;
    $("download-link").href = "/deck/export.txt?share=" + encodeURIComponent(data.code);
    window.history.replaceState(null, "", share.pathname + share.search);
    editor.dataset.legal = data.legal ? "yes" : "no";
  }

  async function change(extra) {
    if (!state) return;
    apply(await call("/api/deck/change", Object.assign(
      {deck: state, collection: collection()}, extra)));
  }

  async function check() {
    if (!state) return;
    apply(await call("/api/deck/check", {deck: state, collection: collection()}));
  }

  // Clicks on the deck's +/- buttons, "put one back" and the search results' "add".
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-add], button[data-remove]");
    if (!button) return;
    if (button.dataset.add !== undefined) change({add: button.dataset.add});
    else change({remove: button.dataset.remove});
  });

  // Renaming: the new name is the deck's at once (share link, sheet); Save writes it into
  // the file's `name:` line (as `deckbuilder deck rename` does).
  $("deck-name").addEventListener("change", () => {
    if (!state) return;
    const before = state.name;
    state.name = $("deck-name").value;
    const note = $("rename-note");
    if (state.file && before !== state.name) {
      note.textContent = `renamed to “${state.name}”: Save writes the new name into ${state.file}`;
      note.classList.remove("hidden");
    }
    check();
  });

  // -- statistics: the odds of one kind or card, a sample hand ------------------------------
  function chooseOdds() {
    const select = $("odds-choice");
    if (!select) return;
    for (const row of document.querySelectorAll("#odds-table tr[data-odds]")) {
      row.hidden = select.value !== "" && row.dataset.odds !== select.value;
    }
  }
  document.addEventListener("change", (event) => {
    if (event.target && event.target.id === "odds-choice") chooseOdds();
  });
  $("draw-hand").addEventListener("click", async () => {
    if (!state) return;
    const data = await call("/api/deck/hand", {deck: state});
    if (data && data.html) putPiece($("hand"), data.html);
  });
  showBar();
  $("print-button").addEventListener("click", () => window.print());
  $("collection").addEventListener("change", check);

  // -- the card search (the card browser's search, as JSON) --------------------------------
  let searchTimer = null;
  let searchSerial = 0;
  async function search() {
    const words = $("card-search").value.trim();
    const list = $("search-results");
    const note = $("search-note");
    if (!words || !state) { list.replaceChildren(); note.textContent = ""; return; }
    const serial = ++searchSerial;
    const query = new URLSearchParams({q: words, game: state.game});
    if (!$("any-faction").checked) query.set("faction", state.faction);
    const response = await fetch("/api/cards?" + query.toString(), {headers: {accept: "application/json"}});
    const data = await response.json();
    if (serial !== searchSerial) return;  // a later search has been sent
    list.replaceChildren();
    if (!response.ok) { note.textContent = data.error || ""; return; }
    note.textContent = data.note ? data.note : `${data.total} card${data.total === 1 ? "" : "s"}`;
    for (const card of data.cards) {
      const item = document.createElement("li");
      const label = document.createElement("span");
      const name = document.createElement("strong");
      name.textContent = card.name;
      name.dataset.face = card.id;
      name.dataset.game = state.game;
      const about = document.createElement("span");
      about.className = "muted";
      about.textContent = ` ${card.category} · ${card.set}` +
        (card.firepower !== null ? ` · fp ${card.firepower}` : "");
      label.append(name, about);
      const add = document.createElement("button");
      add.type = "button";
      add.className = "small";
      add.dataset.add = card.id;
      add.textContent = "add";
      add.setAttribute("aria-label", "add " + card.name);
      item.append(label, add);
      list.append(item);
    }
  }
  $("card-search").addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(search, 180);
  });
  $("any-faction").addEventListener("change", search);

  // -- pasted lists ------------------------------------------------------------------------
  const PROBLEMS = ["unknown", "bad-count", "unreadable", "bad-header", "warning", "sideboard"];

  function lineRow(line) {
    const row = document.createElement("div");
    row.className = "import-line";
    row.dataset.status = line.status;
    const status = document.createElement("span");
    status.className = "status status-" + line.status;
    status.textContent = `${line.number}: ${line.status} `;
    const text = document.createElement("span");
    text.textContent = line.text.trim() + (line.message ? "  — " + line.message : "");
    row.append(status, text);
    if (line.suggestions.length) {
      const choices = document.createElement("div");
      choices.className = "suggestions";
      for (const suggestion of line.suggestions) {
        const use = document.createElement("button");
        use.type = "button";
        use.className = "small secondary";
        use.dataset.line = String(line.number);
        use.dataset.replacement = suggestion.line;
        use.textContent = "use " + suggestion.name;
        choices.append(use);
      }
      row.append(choices);
    }
    return row;
  }

  // The lines that need a look first (with their suggestions), every line on request.
  function showLines(lines) {
    const problems = lines.filter((line) => PROBLEMS.includes(line.status));
    $("import-problems").replaceChildren(...problems.map(lineRow));
    $("import-result").replaceChildren(...lines.map(lineRow));
    $("import-all").classList.toggle("hidden", lines.length === 0);
    const attention = problems.filter((line) => line.status !== "sideboard").length;
    $("import-summary").textContent = `${lines.length} line${lines.length === 1 ? "" : "s"} read; ` +
      (attention ? `${attention} need${attention === 1 ? "s" : ""} attention` : "all read as cards or headers");
  }

  async function importList() {
    const data = await call("/api/deck/import", {
      text: $("import-text").value, faction: $("import-faction").value || null,
      collection: collection(),
    });
    if (!data) return;
    showLines(data.lines || []);
    if (data.error) showError(data.error);
    if (data.deck) apply(data);
  }
  $("import-button").addEventListener("click", importList);

  $("start").addEventListener("click", (event) => {
    const use = event.target.closest("button[data-replacement]");
    if (!use) return;
    const lines = $("import-text").value.split("\n");
    const index = Number(use.dataset.line) - 1;
    if (index >= 0 && index < lines.length) {
      lines[index] = use.dataset.replacement;
      $("import-text").value = lines.join("\n");
      importList();
    }
  });

  // -- save, download, share ---------------------------------------------------------------
  // The file changed since this page read it: say so, keep the deck, offer a copy or a reload.
  function showConflict(conflict, text) {
    $("save-conflict-text").textContent = text;
    $("conflict-copy-name").textContent = conflict.copy;
    $("conflict-copy").dataset.copy = conflict.copy;
    $("conflict-reload").href = conflict.reload;
    $("save-conflict").classList.remove("hidden");
  }

  async function save(name) {
    if (!state) return;
    const message = $("save-message");
    message.classList.add("hidden");
    $("save-conflict").classList.add("hidden");
    const data = await call("/api/deck/save", {
      deck: state, file: name, overwrite: $("save-overwrite").checked,
      collection: collection(),
    });
    if (data && data.conflict) { showConflict(data.conflict, data.error); return; }
    if (!data || !data.saved) return;
    apply(data);
    message.textContent = data.saved.message;
    message.classList.remove("hidden");
  }
  $("save-button").addEventListener("click", () => save($("save-name").value));
  $("conflict-copy").addEventListener("click", () => {
    const name = $("conflict-copy").dataset.copy;
    if (!name) return;
    $("save-name").value = name;
    $("save-overwrite").checked = false;
    save(name);
  });

  $("copy-share").addEventListener("click", async () => {
    const field = $("share-link");
    field.select();
    try { await navigator.clipboard.writeText(field.value); } catch (problem) { /* selected */ }
  });
})();
