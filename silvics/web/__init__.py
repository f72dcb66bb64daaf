"""The table in the browser (`silvics serve`): a game hosted for people, each at their own page
with their seat's view only, bots playing the other seats.

- host.py keeps the game: the seats' secret keys, the people's decisions, undo and "why not?",
  the bots' turns, the save file. It knows no web framework: the tests play it directly.
- view.py lays out what one seat sees, from the observation and the zones' declarations alone.
- app.py serves it with Starlette: pages from Jinja2 templates (autoescaped), a push channel of
  server-sent events, and a small script (static/table.js) without a build step.
"""
