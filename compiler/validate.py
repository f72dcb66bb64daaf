"""JSON Schema validation, with every error mapped to its YAML line and reworded.

The schemas are the files in schemas/, except a step's schema, which is made from the flow
steps' declarations (steps.step_schema) so that a new flow step validates with nothing else
touched; the published file is rewritten from it with

    python -m silvics.compiler.validate
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

from ..interpreter.registry import load_all, spellings
from .diagnostics import Diagnostic, did_you_mean
from .steps import step_schema
from .yamlload import Located

# The schemas sit beside the compiler's own folder in both layouts: the checkout's top
# (compiler/, schemas/) and the installed wheel (silvics/compiler/, silvics/schemas/).
SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def schema_files() -> list[Path]:
    """The JSON Schema files the compiler validates with (one per file kind)."""
    files = sorted(SCHEMAS.glob("*.schema.json"))
    if not files:
        raise FileNotFoundError(f"the JSON Schemas are missing from this installation (looked in {SCHEMAS})")
    return files


def schemas() -> dict[str, dict]:
    """Each file kind's schema, the game's with the step schema of the flow steps declared now."""
    load_all()
    found = {
        path.name.removesuffix(".schema.json"): json.loads(path.read_text(encoding="utf-8"))
        for path in schema_files()
    }
    found["game"]["$defs"]["step"] = step_schema()
    return found


def _whole(checker, instance) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


# JSON Schema counts 2.0 as an integer; YAML's 2.0 is a float, which a count (copies, players)
# cannot be: an integer here is a whole number written as one.
_Validator = validators.extend(
    Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole)
)


@cache
def _validators() -> dict:
    by_kind = schemas()
    registry = Registry().with_resources(
        (f"{name}.schema.json", Resource.from_contents(schema)) for name, schema in by_kind.items()
    )
    registry = registry.with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in by_kind.values()
    )
    made = {name: _Validator(schema, registry=registry) for name, schema in by_kind.items()}
    # Effects printed on cards are blocks of steps, checked against the rules' own step schema.
    made["block"] = _Validator({"$ref": "game.schema.json#/$defs/block"}, registry=registry)
    return made


EMPTY_HINTS = {
    "cards": "a card file needs kind: and cards:",
    "game": "a game file needs id, name, players, kinds, zones and procedures",
    "module": "a module file needs name:",
    "pack": "a pack needs name, extends and cards",
    "scenario": "a scenario needs game: and players:",
}


# (kind, digest of the text) of the files found sound: in one process (`check --watch`, a test
# compiling a game again and again) a file is checked again only once its text has changed
_SOUND: set[tuple[str, bytes]] = set()
SOUND_KEPT = 4096


def forget():
    """Make the validators afresh and check every file again: the registry's primitives, and the
    step schema made from them, have changed (tests/test_registry.py declares new ones)."""
    _validators.cache_clear()
    _SOUND.clear()


def validate(data, located: Located, kind: str, text: str | None = None) -> list[Diagnostic]:
    """All schema errors of one file (the most relevant one per place); `text`, the file's
    text, when given: a text found sound is not checked again."""
    if data is None:
        return [Diagnostic(located.file, 1, 1, "E0201", "the file is empty", EMPTY_HINTS.get(kind, ""))]
    known = None if text is None else (kind, hashlib.blake2b(text.encode(), digest_size=16).digest())
    if known in _SOUND:
        return []
    errors = list(_validators()[kind].iter_errors(data))
    if not errors and known is not None:
        if len(_SOUND) >= SOUND_KEPT:
            _SOUND.clear()
        _SOUND.add(known)
    by_place: dict[tuple, list] = {}
    for error in errors:
        by_place.setdefault(tuple(error.absolute_path), []).append(error)
    return [_diagnostic(best_match(group), located, data=data) for group in by_place.values()]


def validate_block(data, located: Located, at: tuple, document=None) -> list[Diagnostic]:
    """Schema errors of a list of steps that sits at `at` inside a file (a printed effect);
    `document`, the file's data, names the card the steps are printed on."""
    if type(data) is list and all(type(step) is str for step in data):
        return []  # statements only: the schema's first form of a step, and none of the others
    errors = list(_validators()["block"].iter_errors(data))
    return [_diagnostic(best_match([error]), located, at, document) for error in errors]


def _diagnostic(error, located: Located, at: tuple = (), data=None) -> Diagnostic:
    path = at + tuple(error.absolute_path)
    where = place(path, data)
    message, hint = error.message, ""
    if error.validator == "additionalProperties":
        extra = sorted(
            set(error.instance) - set(error.schema.get("properties", {})), key=str
        )  # keys: any YAML scalar
        known = list(error.schema.get("properties", {}))
        path = path + (extra[0],) if extra else path
        message = f"'{extra[0] if extra else '?'}' is not allowed in {where}"
        hint = did_you_mean(extra[0], known) if extra else ""
        hint = hint or (f"allowed here: {', '.join(known)}" if known else "")
        return Diagnostic(located.file, *located.key_at(path), "E0201", message, hint)
    # schemas may carry a designer-facing hint, for one keyword (x-hint-maximum) or for any
    hint = error.schema.get(f"x-hint-{error.validator}", error.schema.get("x-hint", ""))
    if error.validator == "required":
        missing = error.message.split(" is a required")[0]
        written = (
            [key for key in error.instance if key not in error.schema.get("properties", {})]
            if isinstance(error.instance, dict)
            else []
        )
        close = did_you_mean(missing.strip("'"), written)
        if close:  # a misspelt key: point at it
            wrong = next(key for key in written if f"'{key}'" in close)
            return Diagnostic(
                located.file,
                *located.key_at(path + (wrong,)),
                "E0201",
                f"{where} is missing {missing}, and '{wrong}' is written instead",
                f"did you mean {missing}? rename '{wrong}'",
            )
        return Diagnostic(located.file, *located.key_at(path), "E0201", f"{where} is missing {missing}", hint)
    if error.validator == "minimum":
        message = f"{where} must be at least {error.validator_value}, got {error.instance!r}"
    elif error.validator == "maximum":
        message = f"{where} must be at most {error.validator_value}, got {error.instance!r}"
    elif error.validator == "maxLength":
        message = f"{where} is {len(error.instance):,} characters long, more than {error.validator_value}"
    elif error.validator == "type":
        got = (
            "is empty" if error.instance is None else f"got {error.instance!r}"
        )  # (YAML's null: nothing written)
        message = f"{where} must be {_types(error.validator_value)}, {got}"
    elif error.validator == "enum":
        message = f"{where} cannot be {error.instance!r}"
        hint = (
            did_you_mean(error.instance, error.validator_value)
            or f"it can be: {', '.join(map(str, error.validator_value))}"
        )
    elif error.validator == "pattern":
        says = error.schema.get("x-says", "must be lowercase letters, digits and hyphens")
        message = f"{where} {error.instance!r} {says}"
    elif error.validator == "oneOf":
        message = f"{where} is not a step: write a statement, or one of {' / '.join(spellings('step'))}"
    return Diagnostic(located.file, *located.at(path), "E0201", message, hint)


def place(path: tuple, data=None) -> str:
    """A place in a file as a designer names it: `card 'silk', on_buy #1: if` rather than
    `cards.2.on_buy.0.if` (a card by its id, items counted from 1)."""
    if not path:
        return "the file"
    if path[0] == "cards" and len(path) > 1 and isinstance(path[1], int):
        card = (
            data["cards"][path[1]]
            if isinstance(data, dict) and isinstance(data.get("cards"), list) and path[1] < len(data["cards"])
            else None
        )
        named = (
            card.get("id") if isinstance(card, dict) and path[2:3] != ("id",) else None
        )  # a bad id: its number
        head, path = (
            (f"card {named!r}" if isinstance(named, str) and named else f"card #{path[1] + 1}"),
            path[2:],
        )
    else:
        head, path = str(path[0]), path[1:]
    parts = [head]
    for step in path:
        if isinstance(step, int):
            parts[-1] += f" #{step + 1}"
        else:
            parts.append(str(step))
    return ", ".join(parts[:-1]) + ": " + parts[-1] if len(parts) > 1 else parts[0]


def _types(value) -> str:
    names = {
        "integer": "a whole number",
        "string": "text",
        "array": "a list",
        "object": "a mapping",
        "boolean": "true or false",
    }
    return " or ".join(names.get(v, v) for v in ([value] if isinstance(value, str) else value))


def main():
    """Rewrite schemas/game.schema.json with the step schema of the flow steps declared now."""
    path = SCHEMAS / "game.schema.json"
    path.write_text(json.dumps(schemas()["game"], indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
