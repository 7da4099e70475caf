"""No package imports a package above it, and no two packages import each other.

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
