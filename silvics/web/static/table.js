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
  table.innerHTML = html;
  trouble.hidden = true;
  drawn();
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
