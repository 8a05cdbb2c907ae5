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
  let pointerFocus = false;  // true while a pointer press is under way

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

  function place(name) {
    const narrow = window.innerWidth < 600;
    popover.classList.toggle("face-popover--sheet", narrow);
    if (narrow) {  // a sheet along the bottom of a phone's screen
      popover.style.left = "";
      popover.style.top = "";
      return;
    }
    const box = name.getBoundingClientRect();
    const width = popover.offsetWidth;
    const height = popover.offsetHeight;
    let left = box.left + window.scrollX;
    left = Math.max(window.scrollX + 8,
                    Math.min(left, window.scrollX + document.documentElement.clientWidth - width - 8));
    let top = box.bottom + window.scrollY + 6;
    if (box.bottom + height + 6 > window.innerHeight && box.top > height + 6) {
      top = box.top + window.scrollY - height - 6;
    }
    popover.style.left = left + "px";
    popover.style.top = top + "px";
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
  document.addEventListener("pointerup", () => { setTimeout(() => { pointerFocus = false; }, 0); });
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
