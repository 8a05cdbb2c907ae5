// Card faces on hover, focus and tap, on every page (base.html loads this file).
//
// Any element with data-face="RECORD-ID" (and data-game) is a card name: pointing at it,
// focusing it with the keyboard or tapping it shows the card's face (the server's
// card_face.face_html, every value escaped there) in one popover beside it; Escape, a tap
// elsewhere or leaving it closes the popover. Elements are found by delegation, so names the
// game table puts in place later work too. A name that is not a link or a button is made
// focusable here.
"use strict";

(function () {
  const cache = new Map();
  const popover = document.createElement("div");
  popover.id = "face-popover";
  popover.className = "face-popover";
  popover.setAttribute("role", "tooltip");
  popover.hidden = true;
  let current = null;      // the name whose face is shown (or being fetched)
  let hideTimer = 0;
  let showTimer = 0;
  let lastPointer = "mouse";
  let pointerFocus = false;  // true from a pointer press to its click

  function ready(callback) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", callback);
    else callback();
  }

  function trigger(target) {
    return target instanceof Element ? target.closest("[data-face]") : null;
  }

  function makeFocusable(root) {
    for (const name of root.querySelectorAll("[data-face]")) {
      if (name.matches("a[href], button, input, select, textarea")) continue;
      if (!name.hasAttribute("tabindex")) name.tabIndex = 0;
      if (!name.hasAttribute("role")) name.setAttribute("role", "button");
      name.setAttribute("aria-haspopup", "dialog");
    }
  }

  async function faceOf(name) {
    const key = name.dataset.face + "\u0000" + (name.dataset.game || "");
    if (!cache.has(key)) {
      const query = name.dataset.game ? "?game=" + encodeURIComponent(name.dataset.game) : "";
      cache.set(key, fetch("/api/faces/" + encodeURIComponent(name.dataset.face) + query,
                           {headers: {"Accept": "application/json"}})
        .then(async (response) => {
          const data = await response.json();
          if (!response.ok) throw new Error(data.error || "no face for this card");
          return data.html;
        }));
    }
    try {
      return await cache.get(key);
    } catch (error) {
      cache.delete(key);
      throw error;
    }
  }

  // The buttons a face never covers: the decision's (the game table's actions) and the
  // replay's controls. A face shows below its name, or above it when there is no room below
  // on the screen, else below or above all those buttons; never over its own name (a second
  // tap on it closes the face). It is placed once, as it opens, in the page's coordinates:
  // it scrolls with the buttons, so none slides under it, and nothing moves under a tap.
  const KEEP_CLEAR = "#actions button, .replay-controls .button";

  function place(name) {
    const box = name.getBoundingClientRect();
    const clear = [...document.querySelectorAll(KEEP_CLEAR)]
      .filter((button) => button !== name && button.getClientRects().length)
      .map((button) => button.getBoundingClientRect());
    const width = popover.offsetWidth;
    const height = popover.offsetHeight;
    const left = Math.max(8, Math.min(box.left, document.documentElement.clientWidth - width - 8));
    const below = box.bottom + 6;
    const above = box.top - height - 6;
    const tops = below + height > window.innerHeight && above > 0 ? [above, below] : [below, above];
    if (clear.length) {
      tops.push(Math.max(...clear.map((button) => button.bottom)) + 6,
                Math.min(...clear.map((button) => button.top)) - height - 6);
    }
    const free = (top) => top + window.scrollY >= 0 && ![box, ...clear].some((button) =>
      button.left < left + width && left < button.right &&
      button.top < top + height && top < button.bottom);
    const top = tops.find(free);
    if (top === undefined) {
      hide();
      return;
    }
    popover.style.left = left + window.scrollX + "px";
    popover.style.top = top + window.scrollY + "px";
  }

  // A face shown by the pointer resting on a name is passive (a tooltip): clicks go through
  // it to what it covers, and the pointer moving onto it has left the name, so it closes. It
  // holds nothing to press, and a face shown over the game table's buttons must not keep
  // them from the click meant for them. A face asked for (a click, a tap, the keyboard)
  // stays until it is closed. An action's face is always passive.
  function setPassive(name, hovered) {
    popover.classList.toggle("face-popover--passive", hovered || name.dataset.faceTap === "act");
  }

  async function show(name, hovered = false) {
    clearTimeout(hideTimer);
    if (current === name && !popover.hidden) {
      setPassive(name, hovered);
      return;
    }
    if (current && current !== name) current.removeAttribute("aria-describedby");
    current = name;
    let html;
    try {
      html = await faceOf(name);
    } catch (error) {
      html = null;
      if (current !== name) return;
      popover.replaceChildren(document.createTextNode(error.message));
    }
    if (current !== name) return;  // another name was chosen meanwhile
    if (html !== null) {
      // the server's escaped fragment (card_face.face_html), not text from a file
      popover.replaceChildren(document.createRange().createContextualFragment(html));
    }
    setPassive(name, hovered);
    popover.hidden = false;
    name.setAttribute("aria-describedby", popover.id);
    name.setAttribute("aria-expanded", "true");
    place(name);
  }

  function hide() {
    clearTimeout(showTimer);
    if (current) {
      current.removeAttribute("aria-describedby");
      current.setAttribute("aria-expanded", "false");
    }
    current = null;
    popover.hidden = true;
  }

  function hideSoon() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 250);
  }

  ready(() => {
    document.body.append(popover);
    makeFocusable(document);
    new MutationObserver((changes) => {
      for (const change of changes) {
        for (const node of change.addedNodes) {
          if (node instanceof Element) makeFocusable(node.parentNode || node);
        }
        if (current && !current.isConnected) hide();
      }
    }).observe(document.body, {childList: true, subtree: true});
  });

  document.addEventListener("pointerdown", (event) => {
    lastPointer = event.pointerType || "mouse";
    pointerFocus = true;
    if (!trigger(event.target) && !popover.contains(event.target)) hide();
  });
  // a press focuses what it presses before its click: that focus is the click's business
  // (until the click itself: a timer from pointerup may run first on a busy machine)
  document.addEventListener("click", () => { pointerFocus = false; }, true);
  document.addEventListener("mouseover", (event) => {
    if (lastPointer === "touch") return;
    const name = trigger(event.target);
    if (name) {
      clearTimeout(hideTimer);
      clearTimeout(showTimer);
      showTimer = setTimeout(() => show(name, true), 150);
    } else if (popover.contains(event.target)) {
      clearTimeout(hideTimer);
    }
  });
  document.addEventListener("mouseout", (event) => {
    if (lastPointer === "touch") return;
    const name = trigger(event.target);
    if ((name && !name.contains(event.relatedTarget)) || popover.contains(event.target)) {
      clearTimeout(showTimer);
      if (!popover.contains(event.relatedTarget) && !trigger(event.relatedTarget)) hideSoon();
    }
  });
  document.addEventListener("focusin", (event) => {
    // focus by the keyboard shows the face; a click's focus leaves it to the click
    const name = trigger(event.target);
    if (name && !pointerFocus) {
      clearTimeout(showTimer);  // the keyboard's choice wins over a hover still pending
      show(name);
    }
  });
  document.addEventListener("focusout", (event) => {
    if (trigger(event.target) && !trigger(event.relatedTarget)) hideSoon();
  });
  document.addEventListener("click", (event) => {
    const name = trigger(event.target);
    if (!name) return;
    const shownHere = current === name && !popover.hidden;
    if (name.matches("a[href], button")) {
      // a tap on a link shows the face first; a second tap follows the link; a button
      // marked data-face-tap="act" (the game table's actions) acts at once: its card's
      // face is a tap away on the board
      if (lastPointer === "touch" && !shownHere && name.dataset.faceTap !== "act") {
        event.preventDefault();
        show(name);
      }
      return;
    }
    if (shownHere && lastPointer === "touch") hide();  // a second tap closes it
    else show(name);
  });
  document.addEventListener("keydown", (event) => {
    pointerFocus = false;
    if (event.key === "Escape" && !popover.hidden) {
      hide();
      event.stopPropagation();
      return;
    }
    const name = trigger(event.target);
    if (name && !name.matches("a[href], button") && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      if (current === name && !popover.hidden) hide();
      else show(name);
    }
  });
  window.addEventListener("resize", () => { if (current && !popover.hidden) place(current); });
})();
