"""No package imports a package above it, no two packages import each other, and the engine's
pieces live in the engine.

The layers are defined once, here, bottom first. A "package" is a first-level name under
adaptive_skill/ (a subpackage or a top-level module). Every import counts: module-level, inside
functions and methods, inside `if TYPE_CHECKING:`, and `import_module("adaptive_skill....")`. The one
exception is protocols.py's `if TYPE_CHECKING:` block: it names the data types that cross each seam
for type checkers only, never at run time, and that is what lets it sit below every room.

Why the order is what it is (derived from the code and docs/../design notes):
- entries (a distilled skill's entries, written by evolve/distill.py and read by agent/inline.py)
  imports nothing of the project, so it sits beside skills.
- runs, ratings and versioning are stores of a run directory: the team evolver writes run events,
  the engine reads people's verdicts, the review app and the report read all three; none of them
  needs anything above files/errors, so they sit low, not beside the engine.
- embed sits above llm (a litellm embedder) and below agent (memory ranking), spiral (semantic
  detectors), novelty and evolve (team novelty).
- observe and spiral read what the agent wrote, so they sit above agent; the harness builds the
  agent with its spiral monitor and token counter, so it sits above both.
- report reads finished runs; review reads runs through the report's readers and hands the report
  its human-review section, so review sits above report.
- curve runs the engine on workspaces and draws its page with the report's SVG charts, so it sits
  above both; only commands use it.
- engine is alone in its layer: everything the cycle calls of its own (phase results, the gate's
  rule, EGL, replaying a gate) lives under engine/, each phase in engine/phase_<name>.py. A
  top-level module that the engine imports and nothing below the engine does is a piece of it
  that lives outside (phases.py, gating.py, convergence.py and replay.py did, until issue 68);
  the few that are not are named in SHARED_WITH_THE_ENGINE with the reason.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "adaptive_skill"

LAYERS: list[set[str]] = [
    {"__init__", "errors", "files"},
    {"config"},
    {"protocols"},
    {"tasks", "skills", "entries", "versioning", "runs", "ratings", "progress"},
    {"workspace", "llm", "sandbox", "trajectory"},
    {"embed"},
    {"agent"},
    {"observe", "spiral"},
    {"harness", "novelty"},
    {"executors", "evolve", "proposals"},
    {"engine"},
    {"report"},
    {"curve"},
    {"review"},
    {"commands"},
    {"cli", "__main__"},
]
TYPE_ONLY_ALLOWED = {"protocols"}  # its TYPE_CHECKING block is not a run-time dependency (see above)
# Top-level modules the engine imports and no package below the engine does, each with why it is not
# the engine's own (see above).
SHARED_WITH_THE_ENGINE = {
    "ratings": "people's verdicts of a run's trajectories: written by the review app, read by the observe "
               "phase; a store of the run directory like runs.py",
}


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def module_name(root: Path, path: Path) -> str:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes inside `if TYPE_CHECKING:` blocks."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                inside.update(id(n) for n in ast.walk(child))
    return inside


def imported_modules(path: Path, module: str, root: Path) -> list[tuple[str, int, bool]]:
    """(imported module, line, type-checking only) for every import of the project in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    type_only = _type_checking_nodes(tree)
    is_package = path.name == "__init__.py"
    root_name = root.name
    found = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                if not is_package:
                    base = base[:-1]
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # from a.b import c: the module a.b.c where c is one (a file or a package), else a.b
            folder = root.parent.joinpath(*target.split("."))
            targets = [f"{target}.{alias.name}" if (folder / f"{alias.name}.py").is_file()
                       or (folder / alias.name).is_dir() else target for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == \
                "import_module" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                targets = [first.value]
            elif isinstance(first, ast.JoinedStr) and first.values and isinstance(first.values[0], ast.Constant):
                targets = [str(first.values[0].value).rstrip(".")]
        for target in targets:
            if target == root_name or target.startswith(root_name + "."):
                found.append((target, node.lineno, id(node) in type_only))
    return found


def check_layers(root: Path, layers: list[set[str]]) -> tuple[list[str], list[str], dict[str, set[str]]]:
    """(upward imports, packages not in any layer, package graph) of the project under `root`."""
    level = {name: index for index, names in enumerate(layers) for name in names}
    upward, unplaced = [], set()
    graph: dict[str, set[str]] = defaultdict(set)
    for path in sorted(root.rglob("*.py")):
        module = module_name(root, path)
        source = package_of(module)
        for target, line, type_only in imported_modules(path, module, root):
            dest = package_of(target)
            if dest == source or (type_only and source in TYPE_ONLY_ALLOWED):
                continue
            graph[source].add(dest)
            for name in (source, dest):
                if name not in level:
                    unplaced.add(name)
            if source in level and dest in level and level[dest] > level[source]:
                upward.append(f"{path.relative_to(root.parent)}:{line}: {source} imports {target} "
                              f"(layer {level[source]} -> {level[dest]})")
    return upward, sorted(unplaced), graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def module_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the project's modules it imports (every import, type-only ones included: a type
    checker follows them, and so does anyone reading the code)."""
    paths = {module_name(root, path): path for path in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in paths.items():
        for target, _, _ in imported_modules(path, module, root):
            while target not in paths and "." in target:  # a name inside a module: the module
                target = target.rsplit(".", 1)[0]
            if target in paths and target != module:
                graph[module].add(target)
    return graph


def engine_strays(root: Path, layers: list[set[str]], shared: set[str]) -> list[str]:
    """Top-level modules of `root` that a module of its engine/ imports and no package below the
    engine's layer does (only the engine and what runs it use them), unless named in `shared`."""
    level = {name: index for index, names in enumerate(layers) for name in names}
    importers: dict[str, set[str]] = defaultdict(set)
    for module, targets in module_graph(root).items():
        for target in targets:
            importers[target].add(module)
    strays = []
    for path in sorted(root.glob("*.py")):
        module = module_name(root, path)
        users = {package_of(user) for user in importers.get(module, set())}
        below = any(level.get(user, len(layers)) < level["engine"] for user in users)
        if "engine" in users and not below and path.stem not in shared:
            strays.append(f"{path.relative_to(root.parent)}: imported by {', '.join(sorted(users))}")
    return strays


def phase_sources(cycle_path: Path) -> dict[str, tuple[str, str]]:
    """Each phase the cycle runs (`self._phase(n, name, Kind, lambda c: work(...))`) -> (the module
    its work function is imported from, the module its result type is imported from)."""
    tree = ast.parse(cycle_path.read_text(encoding="utf-8"))
    source = {alias.asname or alias.name: node.module for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module for alias in node.names}
    phases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "_phase" and len(node.args) == 4:
            _, name, kind, work = node.args
            assert isinstance(name, ast.Constant) and isinstance(kind, ast.Name), ast.unparse(node)
            assert isinstance(work, ast.Lambda) and isinstance(work.body, ast.Call), ast.unparse(node)
            phases[name.value] = (source.get(ast.unparse(work.body.func), "?"), source.get(kind.id, "?"))
    return phases


def test_every_package_has_a_layer_and_no_import_goes_up():
    upward, unplaced, _ = check_layers(ROOT, LAYERS)
    assert not unplaced, f"packages without a layer (add them to LAYERS): {unplaced}"
    assert not upward, "imports of a higher layer:\n" + "\n".join(upward)


def test_no_import_cycle_between_packages():
    _, _, graph = check_layers(ROOT, LAYERS)
    assert not cycles(graph), f"packages that import each other: {cycles(graph)}"


def test_no_import_cycle_between_modules():
    """Not even through protocols.py's type-only imports: the data types a seam carries live where
    no module that uses the protocol is imported from (protocols.py itself, evolve/outcome.py,
    harness/results.py and harness/names.py import nothing of the project)."""
    found = cycles(module_graph(ROOT))
    assert not found, "modules that import each other (through any chain): " + "; ".join(
        " <-> ".join(component) for component in found)


def test_the_engines_pieces_live_under_engine():
    """The engine is alone in its layer, and no top-level module serves only the engine and what runs
    it (a module of the cycle outside engine/), but those SHARED_WITH_THE_ENGINE say why."""
    assert next(layer for layer in LAYERS if "engine" in layer) == {"engine"}, \
        "a package beside the engine in its layer is a piece of the engine: move it under engine/"
    strays = engine_strays(ROOT, LAYERS, set(SHARED_WITH_THE_ENGINE))
    assert not strays, ("top-level modules only the engine and what runs it import: move them under engine/ "
                        "(or name them in SHARED_WITH_THE_ENGINE, with the reason):\n" + "\n".join(strays))
    missing = [name for name in SHARED_WITH_THE_ENGINE if not (ROOT / f"{name}.py").is_file()]
    assert not missing, f"SHARED_WITH_THE_ENGINE names modules that are gone: {missing}"


def test_each_phase_of_the_cycle_comes_from_its_module_under_engine():
    """cycle.py runs each phase's work from engine/phase_<name>.py and types its result with
    engine/records.py; every phase_<name>.py is a phase the cycle runs."""
    phases = phase_sources(ROOT / "engine" / "cycle.py")
    assert {"solve", "observe", "evolve", "gate", "commit", "converge"} <= set(phases), phases
    wrong = {name: where for name, where in phases.items()
             if where != (f"adaptive_skill.engine.phase_{name}", "adaptive_skill.engine.records")}
    assert not wrong, f"phases whose work or result comes from elsewhere (module, result type): {wrong}"
    modules = {path.stem.removeprefix("phase_") for path in (ROOT / "engine").glob("phase_*.py")}
    assert modules == set(phases), f"phase modules the cycle does not run, or phases without one: " \
                                   f"{sorted(modules ^ set(phases))}"


def test_layers_name_each_package_once():
    names = [name for layer in LAYERS for name in layer]
    assert len(names) == len(set(names))


def test_the_checker_sees_function_local_upward_imports_and_cycles(tmp_path):
    """The walk itself: a fake project with an upward import hidden in a function, a relative one,
    an import_module string and a cycle inside one layer."""
    root = tmp_path / "proj"
    (root / "low").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "low" / "__init__.py").write_text("")
    (root / "low" / "a.py").write_text("def f():\n    from proj.high import x\n    return x\n")
    (root / "low" / "b.py").write_text("from ..high import y\n")
    (root / "high.py").write_text("from proj.low import a\nx = y = 1\n")
    (root / "side.py").write_text("from importlib import import_module\n\ndef g(name):\n"
                                  "    return import_module(f'proj.other.{name}')\n")
    (root / "other.py").write_text("import proj.side\n")
    upward, unplaced, graph = check_layers(root, [{"__init__"}, {"low", "side", "other"}, {"high"}])
    assert len(upward) == 2 and all("low imports proj.high" in line for line in upward), upward
    assert "proj/low/a.py:2:" in upward[0]
    assert unplaced == []
    assert cycles(graph) == [["high", "low"], ["other", "side"]]
    _, unplaced, _ = check_layers(root, [{"__init__"}, {"low"}, {"high"}])
    assert unplaced == ["other", "side"]


def test_the_checker_sees_a_piece_of_the_engine_outside_it(tmp_path):
    """engine_strays on a fake project: a top-level module only the engine (and a command above it)
    imports is a stray; one a lower package imports too is a library; a named one is let be."""
    root = tmp_path / "proj"
    (root / "engine").mkdir(parents=True)
    (root / "commands").mkdir()
    for init in (root / "__init__.py", root / "engine" / "__init__.py", root / "commands" / "__init__.py"):
        init.write_text("")
    (root / "stats.py").write_text("")  # the engine's alone: a stray
    (root / "store.py").write_text("")  # the engine's and a command's: a stray too
    (root / "files.py").write_text("")  # a lower package's as well: a library
    (root / "low.py").write_text("from proj import files\n")
    (root / "engine" / "cycle.py").write_text("from proj import files, stats, store\n")
    (root / "commands" / "show.py").write_text("from proj import store\nfrom proj.engine import cycle\n")
    layers = [{"__init__", "files"}, {"low", "stats", "store"}, {"engine"}, {"commands"}]
    assert [line.split(":")[0] for line in engine_strays(root, layers, set())] == ["proj/stats.py", "proj/store.py"]
    assert [line.split(":")[0] for line in engine_strays(root, layers, {"store"})] == ["proj/stats.py"]
