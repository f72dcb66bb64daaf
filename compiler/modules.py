"""Modules: their own cards, the company they keep (requires, excludes), the steps they add
before and after procedures, and the Module each compiles to.

A module is compiled with the game whether or not it is switched on; `GameIR.with_modules`
layers it on at game start and refuses a combination its `requires` and `excludes` forbid.
Here, the compiler checks what can be checked once for every combination: that the modules
named exist, that no module requires itself round a circle of others, and that every module
can be on in some game.
"""

from __future__ import annotations

from ..interpreter.ir import Company, GameIR, Module
from .diagnostics import Diagnostic, did_you_mean
from .files import Fence, list_files
from .yamlload import dumped

SECTIONS = ("procedures", "before", "after")  # what a module says about procedures, each lowered alike


def company(entry) -> Company:
    """`NAME`, or `{module: NAME, when: OTHER or [OTHERS]}`."""
    if isinstance(entry, str):
        return Company(entry)
    when = entry["when"]
    return Company(entry["module"], (when,) if isinstance(when, str) else tuple(when))


def card_files(module, fence: Fence, diagnostics: list[Diagnostic]):
    """The card files a module lists (relative to it, inside the fence), checked before opening."""
    listing = list_files(module.data.get("cards", []), module.path.parent, fence, "card")
    diagnostics += [
        module.error(("cards", i), "E0101", message, hint) for i, message, hint in listing.refused
    ]
    return listing.files


def check_company(modules, diagnostics: list[Diagnostic]):
    """Every module `requires` and `excludes` name exists and is another; no circle of modules
    requires one another; and every module can be on (what it requires, directly or through
    others, excludes nothing else it requires)."""
    by_name = {m.data["name"]: m for m in modules}
    for module in modules:
        for section, _index, name, path in _named(module):
            if name not in by_name:
                diagnostics.append(
                    module.error(
                        path,
                        "E0401",
                        f"unknown module '{name}'",
                        did_you_mean(name, by_name) or f"modules: {', '.join(by_name)}",
                    )
                )
            elif name == module.data["name"]:
                diagnostics.append(module.error(path, "E0501", f"module '{name}' names itself in {section}"))
    needs = {
        name: {c.module for c in _companies(m, "requires") if not c.when and c.module in by_name}
        for name, m in by_name.items()
    }
    reach = {name: _reached(name, needs) for name in by_name}
    reported = set()
    for name, module in by_name.items():
        circle = [other for other in by_name if other in reach[name] and name in reach[other]]
        if len(circle) > 1 and name not in reported:
            reported |= set(circle)
            diagnostics.append(
                module.error(
                    ("requires",),
                    "E0501",
                    f"modules {', '.join(map(repr, circle))} require each other, so none "
                    "can be on without the others",
                    "make them one module",
                )
            )
        diagnostics += _never_on(module, reach[name], by_name)


def _never_on(module, needed: set, by_name: dict) -> list[Diagnostic]:
    """A module whose requirements include two modules that exclude each other can never be on."""
    for other in sorted(needed):
        for excluded in _companies(by_name[other], "excludes"):
            if not excluded.when and excluded.module in needed and excluded.module != other:  # (itself: said)
                return [
                    module.error(
                        ("name",),
                        "E0501",
                        f"module '{module.data['name']}' can never be on: with it "
                        f"'{other}' and '{excluded.module}' must be on, and '{other}' excludes "
                        f"'{excluded.module}'",
                    )
                ]
    return []


def _reached(name: str, needs: dict) -> set:
    """The module and every module it requires, directly or through others (always, not `when`)."""
    reached, todo = {name}, [name]
    while todo:
        for other in needs[todo.pop()] - reached:
            reached.add(other)
            todo.append(other)
    return reached


def _companies(module, section: str) -> list[Company]:
    return [company(entry) for entry in module.data.get(section, [])]


def _named(module):
    """(section, index, module name, YAML path) for every module a module's company names."""
    for section in ("requires", "excludes"):
        for index, entry in enumerate(module.data.get(section, [])):
            if isinstance(entry, str):
                yield section, index, entry, (section, index)
                continue
            yield section, index, entry["module"], (section, index, "module")
            when = entry["when"]
            for place, name in enumerate([when] if isinstance(when, str) else when):
                yield (
                    section,
                    index,
                    name,
                    (section, index, "when") if isinstance(when, str) else (section, index, "when", place),
                )


def check_extended(modules, procedures: set, diagnostics: list[Diagnostic]):
    """Steps `before` and `after` a procedure name one of the game's or a module's."""
    for module in modules:
        for section in ("before", "after"):
            for name in module.data.get(section, {}):
                if name not in procedures:
                    diagnostics.append(
                        module.error(
                            (section, name),
                            "E0401",
                            f"unknown procedure '{name}'",
                            did_you_mean(name, procedures),
                            at_key=True,
                        )
                    )


def sections(module, procedures: set) -> list[tuple[str, dict]]:
    """What a module says about procedures, by section, leaving out unknown ones (reported)."""
    return [
        (
            section,
            {
                name: body
                for name, body in module.data.get(section, {}).items()
                if section == "procedures" or name in procedures
            },
        )
        for section in SECTIONS
    ]


def assembled(module, lowered: dict, cards: tuple, options: dict) -> Module:
    """The Module: `lowered` holds each section's procedures as IR, `options` the game's options by name."""
    data = module.data
    return Module(
        data["name"],
        " ".join(data.get("description", "").split()),
        lowered["procedures"],
        lowered["before"],
        lowered["after"],
        cards,
        tuple(_companies(module, "requires")),
        tuple(_companies(module, "excludes")),
        tuple(options[name] for name in data.get("options", {}) if name in options),
        (data["players"]["min"], data["players"]["max"]) if "players" in data else (),
        written={
            f"{section} {name}".removeprefix("procedures "): dumped(steps)
            for section in SECTIONS
            for name, steps in data.get(section, {}).items()
        },
    )


def module_changes(ir: GameIR, name: str) -> str:
    """What a module changes, in one line (`silvics check` shows one per module)."""
    module = ir.modules[name]
    parts = [
        ("replaces procedures", [p for p in module.procedures if p in ir.procedures]),
        ("adds procedures", [p for p in module.procedures if p not in ir.procedures]),
        ("adds steps before", list(module.before)),
        ("adds steps after", list(module.after)),
        (
            "adds cards",
            [f"{len(module.cards)} ({sum(c.copies for c in module.cards)} copies)"] if module.cards else [],
        ),
        ("requires", [_company_text(c) for c in module.requires]),
        ("excludes", [_company_text(c) for c in module.excludes]),
        ("options", [o.name for o in module.options]),
    ]
    said = [f"{what}: {', '.join(items)}" for what, items in parts if items]
    return f"module {name}: {'; '.join(said) or 'changes nothing'}"


def _company_text(company: Company) -> str:
    return company.module + (f" (when {' and '.join(company.when)} on)" if company.when else "")
