"""Text from a game's data made safe in generated Markdown: it can add no HTML, code, link,
heading or line of its own, whoever wrote the pack."""

from __future__ import annotations

# Text from the data, in a paragraph, heading or table cell: HTML is shown, not run; code
# spans, emphasis, headings and table cells cannot be opened; links cannot be formed.
_MARKDOWN = str.maketrans(
    {"\\": "\\\\", "`": "\\`", "*": "\\*", "#": "\\#", "|": "\\|", "<": "&lt;", ">": "&gt;", "&": "&amp;"}
)


def inline(text) -> str:
    """Data text made inert in Markdown, on one line (a line break could start a block)."""
    text = " ".join(str(text).split()).translate(_MARKDOWN).replace("](", "]\\(")  # no [text](url)
    return "\\" + text if text.startswith("[") else text  # no [label]: url


def code(text) -> str:
    """Data text as a code span in a table cell: fenced by more backticks than it holds."""
    text = " ".join(str(text).split()).replace("|", "\\|")
    ticks = "`" * (longest_run(text, "`") + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{padding}{text}{padding}{ticks}"


def fenced(language: str, blocks: list[str]) -> list[str]:
    """A fenced code block no line of the data can close: its fence is longer than any run of
    backticks inside."""
    fence = "`" * max(3, 1 + max((longest_run(block, "`") for block in blocks), default=0))
    return [f"{fence}{language}", *blocks, fence, ""]


def longest_run(text: str, char: str) -> int:
    longest = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        longest = max(longest, run)
    return longest
