"""Maps: a grid zone laid out as rows of one-character space codes and a legend saying what each
code prints on its space. Read from a map file, or written inline (a position's small board)."""

from __future__ import annotations

from dataclasses import dataclass

from ..interpreter.ir import AttrDecl, SpaceDef
from .diagnostics import Diagnostic, did_you_mean
from .document import Document
from .files import Fence, list_files

HOLE = " "  # no space here: ragged edges, holes
MAX_SPACES = 10_000  # of one map: 30 times the largest bundled board; a hostile map must not cost minutes


@dataclass(frozen=True)
class SpaceAttribute:
    """An attribute the rules declare under `spaces:`, and whether a legend may leave it out
    (when it is optional, or has a default: `attribute.default`)."""

    attribute: AttrDecl
    optional: bool = False


def read_map(
    entry: str, base: Document, path: tuple, fence: Fence, attributes: dict, diagnostics: list
) -> tuple[SpaceDef, ...]:
    """The spaces of the map file `entry` names (relative to `base`, the file naming it, and inside
    the fence: the game's root, or a pack's folder), checked against the declared space attributes;
    () after a diagnostic."""
    listing = list_files([entry], base.path.parent, fence, "map")
    if listing.refused or listing.folders:
        message, hint = (
            listing.refused[0][1:] if listing.refused else (f"'{entry}' is a folder", "name one map file")
        )
        diagnostics.append(base.error(path, "E0101", message, hint))
        return ()
    document = Document(listing.files[0], "board", diagnostics)
    return laid_out(document, (), attributes, diagnostics) if document.data else ()


def laid_out(document, at: tuple, attributes: dict, diagnostics: list) -> tuple[SpaceDef, ...]:
    """The spaces of the map at `at` in a loaded, schema-checked document (a map file: `()`)."""
    data = document.data
    for key in at:
        data = data[key]
    legend = {
        code: _printed(document, (*at, "legend", code), spec, attributes, diagnostics)
        for code, spec in data["legend"].items()
    }
    drawn = sum(len(row) - row.count(HOLE) for row in data["rows"])
    if drawn > MAX_SPACES:
        diagnostics.append(
            document.error(
                (*at, "rows"),
                "E0501",
                f"the map has {drawn:,} spaces, more than {MAX_SPACES:,}",
                "a board needs far fewer: draw only its spaces",
            )
        )
        return ()
    spaces = []
    for index, row in enumerate(data["rows"]):
        _, source = document.effect((*at, "rows", index), row)
        for column, code in enumerate(row, start=1):
            if code == HOLE:
                continue
            if code not in legend:
                diagnostics.append(
                    Diagnostic(
                        source.file,
                        source.line,
                        source.col + column - 1,
                        "E0401",
                        f"'{code}' is not in the legend",
                        f"the legend has: {' '.join(legend)}",
                    )
                )
                continue
            spaces.append(SpaceDef(f"r{index + 1}", column, legend[code]))
    if not spaces:
        diagnostics.append(
            document.error((*at, "rows"), "E0201", "the map has no space", "write a character per space")
        )
    return tuple(spaces)


def _printed(document, path: tuple, spec: dict, attributes: dict, diagnostics: list) -> dict:
    """A legend entry's attributes: each declared under `spaces` and of its type; every attribute
    that is neither optional nor has a default is given."""
    printed = {}
    for name, value in spec.items():
        declared = attributes.get(name)
        if declared is None:
            diagnostics.append(
                document.error(
                    (*path, name),
                    "E0401",
                    f"spaces have no attribute '{name}'",
                    did_you_mean(name, attributes)
                    or f"declare it under spaces: in the rules ({', '.join(attributes) or 'none yet'})",
                    at_key=True,
                )
            )
            continue
        problem = _misfit(declared.attribute, value)
        if problem:
            diagnostics.append(document.error((*path, name), "E0402", problem[0], problem[1]))
            continue
        printed[name] = list(value) if declared.attribute.type == "set" else value
    for name, declared in attributes.items():
        if name not in spec and not declared.optional and declared.attribute.default is None:
            diagnostics.append(
                document.error(
                    path,
                    "E0402",
                    f"the legend's '{path[-1]}' gives no '{name}'",
                    "give it, or declare it optional: true or with a default",
                    at_key=True,
                )
            )
    return printed


def _misfit(attribute, value) -> tuple[str, str] | None:
    """Why `value` is not of the attribute's type, or None."""
    if attribute.type == "int":
        return None if type(value) is int else (f"'{attribute.name}' is a whole number, not {value!r}", "")
    allowed = attribute.values
    items = value if attribute.type == "set" else [value]
    if attribute.type == "set" and not isinstance(value, list):
        return f"'{attribute.name}' is a list of words", f"e.g. [{allowed[0]}]"
    for item in items:
        if item not in allowed:
            return (
                f"'{attribute.name}' cannot be {item!r}",
                did_you_mean(str(item), allowed) or f"it can be: {', '.join(allowed)}",
            )
    return None
