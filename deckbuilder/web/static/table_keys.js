// A game table by keyboard and screen reader, the bot's table and a friend's alike (their
// pages load this after play.js or friend.js): the keys of the "Keys" list (#keys-help), the
// focus brought back to the decision when the page script redraws the buttons (a move, the
// opponent's), and the live region #table-news that says what happened since and what is
// asked now. It only watches what the page script draws, so that script needs nothing of it.
"use strict";

(function () {
  const actions = document.getElementById("actions");
  const board = document.getElementById("board");
  const log = document.getElementById("log");
  const news = document.getElementById("table-news");
  const help = document.getElementById("keys-help");
  if (!actions || !news) return;
  let heard = [];  // log lines added since the last announcement

  // What the panel asks now: the decision, who is awaited, or how the game ended.
  function decision() {
    return actions.querySelector(".decision, #waiting, #outcome, p.muted");
  }

  function focusDecision() {
    const target = decision() || actions;
    if (!target.hasAttribute("tabindex")) target.tabIndex = -1;
    target.focus();
  }

  function announce() {
    const asked = decision() && decision().cloneNode(true);
    if (asked) for (const button of asked.querySelectorAll("button")) button.remove();
    news.textContent = [...heard, asked ? asked.textContent.trim() : ""].join(" ").trim();
    heard = [];
  }

  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) heard.push(node.textContent.trim());
    }
  }).observe(log, {childList: true});

  // the buttons redrawn: announce, and give the focus back to the decision when it was on
  // what was redrawn (or lost with it), never taken from elsewhere
  new MutationObserver(() => {
    const focused = document.activeElement;
    const lost = !focused || focused === document.body || !focused.isConnected ||
                 actions.contains(focused) || board.contains(focused);
    announce();
    if (lost && !document.getElementById("table").hidden) focusDecision();
  }).observe(actions, {childList: true});

  function choose(button) {
    if (!button || button.disabled) return false;
    button.click();
    return true;
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    const buttons = [...actions.querySelectorAll("button.action")];
    let done = false;
    if (/^[1-9]$/.test(event.key)) done = choose(buttons[Number(event.key) - 1]);
    else if (event.key === "p") done = choose(actions.querySelector('[data-group="pass"] button'));
    else if (event.key === "t") done = choose(document.getElementById("take-back"));
    else if (event.key === "d") done = (focusDecision(), true);
    else if (event.key === "?" && help) {
      help.open = !help.open;
      done = true;
    }
    if (done) event.preventDefault();
  });

  announce();
})();
