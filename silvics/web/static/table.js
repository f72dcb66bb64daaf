// The table's page: pushes of a change (server-sent events) redraw the view; clicks on an option
// or an offered card answer the question; a card not offered asks why not. No build step.
"use strict";
const base = document.body.dataset.base;
const table = document.getElementById("table");
const trouble = document.getElementById("trouble");
let busy = false;

function shown(attribute) {
  const view = table.firstElementChild;
  return view ? Number(view.dataset[attribute]) : -1;
}

function drawn() {
  const story = table.querySelector(".story .lines");
  if (story) story.scrollTop = story.scrollHeight;   // the newest line in sight
  document.body.dataset.drawn = String(shown("version"));   // the version shown: what a test waits on
}

function draw(html) {
  const decision = shown("decision");
  const fresh = document.createElement("template");
  fresh.innerHTML = html;
  morphChildren(table, fresh.content);
  // an option keeps its element but not its meaning: Enter pressed again must not answer the
  // next question with whatever option now sits where the last answer was
  const focused = document.activeElement;
  if (shown("decision") !== decision && focused && focused.closest("[data-option]")) focused.blur();
  trouble.hidden = true;
  drawn();
}

// The view drawn again in place: a node that looks as it did is kept, one that changed is
// changed, so a move repaints what it moved (a card's image is not decoded again, a text typed
// into the why-not box stays, the browser lays out and paints only the parts that differ).
function morph(old, fresh) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return;
  }
  for (const name of old.getAttributeNames()) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const name of fresh.getAttributeNames()) {
    const value = fresh.getAttribute(name);
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  morphChildren(old, fresh);
}

// Each new element is drawn over the first old one still unused that is the same kind of
// element (the same tag, card name or first class: a question's tools, after its options come
// or go), each new text over the old node next if that is text; the old nodes passed over are
// removed, a new one with no such old one is inserted.
function morphChildren(old, fresh) {
  let next = old.firstChild;
  for (const node of Array.from(fresh.childNodes)) {
    let match = next;
    if (node.nodeType === Node.ELEMENT_NODE) {
      while (match && !alike(match, node)) match = match.nextSibling;
    } else if (match && !alike(match, node)) {
      match = null;
    }
    if (!match) {
      old.insertBefore(node, next);
      continue;
    }
    removeUntil(next, match);
    morph(match, node);
    next = match.nextSibling;
  }
  removeUntil(next, null);
}

function removeUntil(node, stop) {
  while (node !== stop) {
    const passed = node;
    node = node.nextSibling;
    passed.remove();
  }
}

function alike(old, fresh) {
  return old.nodeName === fresh.nodeName && kind(old) === kind(fresh);
}

function kind(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return "";
  return node.dataset.name ?? (node.getAttribute("class") || "").split(" ")[0];
}

async function refresh() {
  const answer = await fetch(base + "/view", {cache: "no-store"});
  if (answer.ok) draw(await answer.text());
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  const started = performance.now();
  try {
    const answer = await fetch(base + path, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
    if (answer.ok) {
      draw(await answer.text());
      document.body.dataset.answeredIn = String(performance.now() - started);   // ms, click to page drawn
    } else {
      const said = await answer.json().catch(() => ({error: "the table did not answer"}));
      trouble.textContent = said.error;
      trouble.hidden = false;
      await refresh();
      trouble.hidden = false;
    }
  } finally {
    busy = false;
  }
}

function act(target) {
  const option = target.closest("[data-option]");
  const nearest = target.closest("figure.card");
  const beneath = option && nearest && nearest !== option && option.contains(nearest);   // a vote under an offered creature
  if (option && !beneath) return send("/choose", {decision: shown("decision"), option: Number(option.dataset.option)});
  if (target.closest("[data-undo]")) return send("/undo", {decision: shown("decision")});
  const pass = target.closest("[data-pass]");
  if (pass) return send("/pass", {seat: Number(pass.dataset.pass)});
  const card = target.closest("[data-name]");
  if (card) return send("/why", {name: card.dataset.name});
}

table.addEventListener("click", (event) => act(event.target));
table.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && event.target.matches("[data-option][tabindex]")) act(event.target);
});
table.addEventListener("submit", (event) => {
  event.preventDefault();
  const name = event.target.elements.name.value.trim();
  if (name) send("/why", {name});
});

const events = new EventSource(base + "/events");
events.onmessage = (event) => { if (Number(event.data) !== shown("version")) refresh(); };
drawn();
