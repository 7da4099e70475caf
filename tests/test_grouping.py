"""evolve/grouping.py: which passed attempts make one skill where no family is declared (issue 66)."""

from adaptive_skill.evolve.distill import skill_name
from adaptive_skill.evolve.grouping import Item, group_names
from adaptive_skill.skills import NAME_PATTERN


def _gzip(path: str) -> Item:
    return Item("files", f"Compress `{path}` with gzip and keep the original file next to the archive.",
                (f"gzip -k {path}",))


def _lines(path: str, out: str) -> Item:
    return Item("files", f"Write the number of lines of `{path}` into `{out}`, just the digits.",
                (f"wc -l < {path} > {out}",))


def test_one_category_splits_into_its_kinds_of_work_and_the_names_are_skill_names():
    items = [_gzip("/app/a.log"), _lines("/app/x.txt", "/app/n.txt"), _gzip("/srv/b.csv"),
             _lines("/data/y.md", "/tmp/count")]
    names = group_names(items, {})
    assert names[0] == names[2] and names[1] == names[3] and names[0] != names[1]
    assert all(name.startswith("files-") and NAME_PATTERN.match(skill_name(name) or "") for name in names)
    assert group_names(items, {}) == names  # the same batch, the same names


def test_an_alike_task_joins_its_existing_skill_and_a_new_kind_takes_a_name_no_skill_has():
    existing = {"files-gzip-keep": ("files", [_gzip("/app/a.log"), _gzip("/srv/b.csv")])}
    names = group_names([_gzip("/opt/c.json"), _lines("/app/x.txt", "/app/n.txt")], existing)
    assert names[0] == "files-gzip-keep"
    assert names[1] != "files-gzip-keep" and names[1] not in existing
    other_category = {"archives-gzip": ("archives", [_gzip("/app/a.log")])}
    assert group_names([_gzip("/opt/c.json")], other_category)[0] != "archives-gzip"  # not across categories


def test_a_taken_name_gets_a_number_and_stays_within_a_skills_name():
    long = Item("a" * 60, "Compress `/a` with gzip and keep the original file.", ("gzip -k /a",))
    first = group_names([long], {})[0]
    second = group_names([long], {first: ("b", [Item("b", "unrelated words entirely", ("true",))])})[0]
    assert second == f"{first}-2" and len(second) <= 40
    assert skill_name(second) not in (None, skill_name(first))


def test_empty_and_strange_text_gives_a_name_and_no_error():
    names = group_names([Item("", "", ()), Item("x", "`/a` `/b` 123", ("",)), Item("x", "\u200b\x00", ())], {})
    assert all(NAME_PATTERN.match(name) for name in names)
