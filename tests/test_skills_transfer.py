"""`adaptive-skill skills export|import`: a tag's skills leave as Agent Skills directories and come
back byte for byte with their modes; symlinks, invalid skills and existing targets are refused
with one line and exit code 2. Real git, real files, the real CLI in a subprocess."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adaptive_skill.versioning import WorkspaceRepo

REPO = Path(__file__).resolve().parents[1]
SKILL = """---
name: {name}
description: Use when {name} matters.
---
## Steps
1. Run `bash /skills/{name}/scripts/run.sh`.

## Verification
- It printed ok.
"""


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *args], capture_output=True, text=True,
                          cwd=cwd or REPO, timeout=120)


def add_skill(skills: Path, name: str, script: str = "echo ok\n") -> Path:
    folder = skills / name
    (folder / "scripts").mkdir(parents=True)
    (folder / "references").mkdir()
    (folder / "SKILL.md").write_text(SKILL.format(name=name))
    (folder / "scripts" / "run.sh").write_text(f"#!/bin/bash\n{script}")
    (folder / "scripts" / "run.sh").chmod(0o755)
    (folder / "references" / "notes.md").write_text(f"notes for {name}\n\x00binary-ok\n")
    return folder


def files(root: Path) -> dict[str, tuple[bytes, bool]]:
    """relative path -> (bytes, executable) of every file under root."""
    return {p.relative_to(root).as_posix(): (p.read_bytes(), os.access(p, os.X_OK))
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def run(tmp_path) -> Path:
    """A run directory whose workspace has evo-1 with two skills, then a later change (so the work
    tree is not what evo-1 holds)."""
    run = tmp_path / "run"
    shutil.copytree(REPO / "workspace", run / "workspace")
    add_skill(run / "workspace" / "skills", "probe-files")
    add_skill(run / "workspace" / "skills", "port-check", "ss -ltn\n")
    repo = WorkspaceRepo.init(run / "workspace")
    repo.tag("evo-1", {"holdout": 0.5}, "two skills")
    (run / "workspace/skills/probe-files/scripts/run.sh").write_text("#!/bin/bash\necho changed later\n")
    repo.snapshot("later change")
    return run


def test_export_then_import_round_trips_a_tags_skills_byte_for_byte(run, tmp_path):
    dest = tmp_path / "agent-skills"
    result = cli("skills", "export", "--run", str(run), "--tag", "evo-1", "--out", str(dest))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in dest.iterdir()) == ["check-your-work", "port-check", "probe-files"]
    tagged = WorkspaceRepo.open(run / "workspace").export("evo-1", tmp_path / "tagged") / "skills"
    assert files(dest) == files(tagged)
    assert files(dest)["probe-files/scripts/run.sh"] == (b"#!/bin/bash\necho ok\n", True)

    seed = tmp_path / "seed"
    shutil.copytree(REPO / "workspace", seed)
    shutil.rmtree(seed / "skills" / "check-your-work")
    result = cli("skills", "import", str(dest), "--workspace", str(seed))
    assert result.returncode == 0, result.stderr
    assert files(seed / "skills") == files(tagged)
    assert os.stat(seed / "skills/probe-files/scripts/run.sh").st_mode & 0o111 == 0o111
    assert cli("skills", "check", str(seed / "skills")).returncode == 0


def test_export_refuses_to_overwrite_unless_forced(run, tmp_path):
    dest = tmp_path / "out"
    assert cli("skills", "export", "--run", str(run), "--tag", "evo-1", "--out", str(dest)).returncode == 0
    (dest / "probe-files" / "scripts" / "run.sh").write_text("edited by the user\n")
    again = cli("skills", "export", "--run", str(run), "--tag", "evo-1", "--out", str(dest))
    assert again.returncode == 2 and len(again.stderr.strip().splitlines()) == 1
    assert "already exist; use --force" in again.stderr and "Traceback" not in again.stderr
    assert (dest / "probe-files" / "scripts" / "run.sh").read_text() == "edited by the user\n"
    forced = cli("skills", "export", "--run", str(run), "--tag", "evo-1", "--force", "--out", str(dest))
    assert forced.returncode == 0 and (dest / "probe-files/scripts/run.sh").read_text() == "#!/bin/bash\necho ok\n"
    # without --tag: the work tree, with the later change
    latest = cli("skills", "export", "--run", str(run), "--out", str(tmp_path / "latest"))
    assert latest.returncode == 0 and "changed later" in (tmp_path / "latest/probe-files/scripts/run.sh").read_text()


def test_export_refuses_symlinks_and_invalid_skills_in_the_tag(run, tmp_path):
    workspace = run / "workspace"
    (workspace / "skills/probe-files/references/passwd").symlink_to("/etc/passwd")
    WorkspaceRepo.open(workspace).snapshot("a link")
    WorkspaceRepo.open(workspace).tag("evo-2")
    linked = cli("skills", "export", "--run", str(run), "--tag", "evo-2", "--out", str(tmp_path / "a"))
    assert linked.returncode == 2 and len(linked.stderr.strip().splitlines()) == 1, linked.stderr
    assert not (tmp_path / "a" / "probe-files").exists()
    (workspace / "skills/probe-files/references/passwd").unlink()
    (workspace / "skills/port-check/SKILL.md").write_text("---\nname: port-check\n---\nbody\n")
    WorkspaceRepo.open(workspace).snapshot("an invalid skill")
    WorkspaceRepo.open(workspace).tag("evo-3")
    invalid = cli("skills", "export", "--run", str(run), "--tag", "evo-3", "--out", str(tmp_path / "b"))
    assert invalid.returncode == 2 and "description" in invalid.stderr
    assert len(invalid.stderr.strip().splitlines()) == 1 and not (tmp_path / "b").exists()


def test_import_refuses_symlinks_invalid_skills_and_existing_names(tmp_path):
    seed = tmp_path / "seed"
    shutil.copytree(REPO / "workspace", seed)
    before = files(seed)
    src = tmp_path / "src"
    add_skill(src, "good-one")
    bad = add_skill(src, "bad-one")
    (bad / "references" / "secret").symlink_to("/etc/passwd")
    result = cli("skills", "import", str(src), "--workspace", str(seed))
    assert result.returncode == 2 and "symlinks are not allowed" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and files(seed) == before  # all or nothing

    (bad / "references" / "secret").unlink()
    (bad / "SKILL.md").write_text(SKILL.format(name="other-name"))
    mismatch = cli("skills", "import", str(src), "--workspace", str(seed))
    assert mismatch.returncode == 2 and "differs from its directory name" in mismatch.stderr
    assert files(seed) == before

    shutil.rmtree(bad)
    one = cli("skills", "import", str(src / "good-one"), "--workspace", str(seed))  # one skill directory
    assert one.returncode == 0 and (seed / "skills/good-one/scripts/run.sh").is_file()
    twice = cli("skills", "import", str(src / "good-one"), "--workspace", str(seed))
    assert twice.returncode == 2 and "use --force" in twice.stderr

    linked_src = tmp_path / "linked-src"
    linked_src.symlink_to(src)
    assert cli("skills", "import", str(linked_src), "--workspace", str(seed)).returncode == 2
    not_ws = cli("skills", "import", str(src), "--workspace", str(tmp_path / "nowhere"))
    assert not_ws.returncode == 2 and "workspace" in not_ws.stderr
