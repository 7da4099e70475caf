"""Task image tags (content hashes), cached builds, build failures and timeouts, base images, commands."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from adaptive_skill.cli import main
from adaptive_skill.errors import UserError
from adaptive_skill.sandbox import debian_base
from adaptive_skill.sandbox.debian_base import BASE_IMAGE, ensure_base_images, host_debian_mirror
from adaptive_skill.sandbox.images import ImageBuildError, build_images, build_task_image, task_image_tag
from adaptive_skill.tasks.model import Task


def make_task(root: Path, task_id: str = "tiny", dockerfile: str = "FROM debian:bookworm-slim\nCOPY data /data\n",
              files: dict[str, str] | None = None, build_timeout: float = 300, outside: bool = False) -> Task:
    """A task whose Dockerfile sits in environment/ (Harbor) or, with outside=True, next to it."""
    env = root / task_id / "environment"
    env.mkdir(parents=True, exist_ok=True)
    for rel, text in (files or {"data/a.txt": "a\n"}).items():
        (env / rel).parent.mkdir(parents=True, exist_ok=True)
        (env / rel).write_text(text)
    dockerfile_path = (root / task_id / "Dockerfile") if outside else (env / "Dockerfile")
    dockerfile_path.write_text(dockerfile)
    return Task(id=task_id, path=root / task_id, layout="harbor", instruction="", environment_dir=env,
                dockerfile=dockerfile_path, build_timeout_sec=build_timeout)


# -- the tag (no engine needed) ----------------------------------------------------------------------

def test_tag_is_a_content_hash(tmp_path):
    task = make_task(tmp_path, "Hash_Me")
    tag = task_image_tag(task)
    assert tag.startswith("adaptive-skill-task/hash_me:") and len(tag.rsplit(":", 1)[1]) == 16
    assert task_image_tag(task) == tag

    data = task.environment_dir / "data" / "a.txt"
    os.utime(data, (1, 1))
    assert task_image_tag(task) == tag  # mtimes do not count
    data.write_text("changed\n")
    changed = task_image_tag(task)
    assert changed != tag
    data.chmod(0o755)
    assert task_image_tag(task) != changed  # modes count
    (task.environment_dir / "data" / "new.txt").write_text("")
    moved = task_image_tag(task)
    (task.environment_dir / "data" / "new.txt").rename(task.environment_dir / "data" / "renamed.txt")
    assert task_image_tag(task) != moved  # names count
    before = task_image_tag(task)
    task.dockerfile.write_text(task.dockerfile.read_text() + "RUN true\n")
    assert task_image_tag(task) != before  # the Dockerfile counts


def test_dockerignore_is_applied_and_hashed(tmp_path):
    task = make_task(tmp_path, files={"data/a.txt": "a", "junk/big.log": "x", ".dockerignore": "junk\n"})
    tag = task_image_tag(task)
    (task.environment_dir / "junk" / "big.log").write_text("not sent to docker, so it does not count")
    assert task_image_tag(task) == tag
    (task.environment_dir / ".dockerignore").write_text("junk\n*.tmp\n")
    assert task_image_tag(task) != tag


def test_missing_context_is_a_build_error(tmp_path):
    task = make_task(tmp_path)
    task.dockerfile.unlink()
    with pytest.raises(ImageBuildError, match="no Dockerfile"):
        task_image_tag(task)


def test_host_mirror_from_apt_sources(tmp_path):
    apt = tmp_path / "apt"
    (apt / "sources.list.d").mkdir(parents=True)
    assert host_debian_mirror(apt) == "http://deb.debian.org/debian"
    (apt / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\nComponents: main\n\n"
        "Types: deb deb-src\n# a comment\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\n"
        "Components: main\n")
    assert host_debian_mirror(apt) == "http://mirror.example/debian"
    (apt / "sources.list.d" / "debian.sources").unlink()
    (apt / "sources.list").write_text("# old style\ndeb [arch=amd64 signed-by=/k.gpg] http://one.example/debian "
                                      "bookworm main\n")
    assert host_debian_mirror(apt) == "http://one.example/debian"
    (apt / "sources.list").write_text("deb http://archive.ubuntu.com/ubuntu jammy main\n")
    assert host_debian_mirror(apt) == "http://deb.debian.org/debian"  # an Ubuntu host: not a Debian mirror


def test_base_build_needs_debootstrap(monkeypatch, docker_client):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(UserError, match="apt-get install debootstrap"):
        debian_base.build_base_image(docker_client)


# -- building with the engine ------------------------------------------------------------------------

@pytest.mark.docker
def test_second_build_is_cached_and_a_change_rebuilds(tmp_path, docker_client, base_image):
    tasks = [make_task(tmp_path, "cache-one"), make_task(tmp_path, "cache-two", files={"data/b": "b\n"})]
    try:
        first = build_images(tasks, docker_client, progress=False)
        assert [r.status for r in first] == ["built", "built"]
        image = docker_client.images.get(first[0].tag)
        assert image.labels["adaptive-skill.task"] == "cache-one"

        assert [r.status for r in build_images(tasks, docker_client, progress=False)] == ["cached", "cached"]
        (tasks[1].environment_dir / "data" / "b").write_text("b changed\n")
        again = build_images(tasks, docker_client, progress=False)
        assert [r.status for r in again] == ["cached", "built"] and again[1].tag != first[1].tag
        assert build_images(tasks[:1], docker_client, progress=False, force=True)[0].status == "built"
    finally:
        _remove_images(docker_client, "cache-one", "cache-two")


@pytest.mark.docker
def test_dockerfile_outside_the_context(tmp_path, docker_client, base_image):
    task = make_task(tmp_path, "outside", outside=True,
                     dockerfile="FROM debian:bookworm-slim\nCOPY data/a.txt /a.txt\nRUN test -f /a.txt\n")
    try:
        assert build_task_image(task, docker_client) == task_image_tag(task)
    finally:
        _remove_images(docker_client, "outside")


@pytest.mark.docker
def test_failed_build_carries_the_log_tail(tmp_path, docker_client, base_image):
    task = make_task(tmp_path, "broken", dockerfile="FROM debian:bookworm-slim\nRUN echo about to fail && exit 3\n")
    with pytest.raises(ImageBuildError) as caught:
        build_task_image(task, docker_client)
    assert caught.value.task_id == "broken" and "returned a non-zero code: 3" in caught.value.reason
    assert "about to fail" in caught.value.log_tail
    result = build_images([task], docker_client, progress=False)[0]
    assert result.status == "failed" and "non-zero code" in result.error


@pytest.mark.docker
def test_build_timeout_stops_the_build(tmp_path, docker_client, base_image):
    task = make_task(tmp_path, "slow", dockerfile="FROM debian:bookworm-slim\nRUN sleep 120\n", build_timeout=3)
    with pytest.raises(ImageBuildError, match="timed out after 3 s"):
        build_task_image(task, docker_client)
    # the engine cancelled it: no build container is left running `sleep 120`
    running = [c for c in docker_client.containers.list() if "sleep 120" in " ".join(c.attrs["Config"]["Cmd"] or [])]
    assert running == []


@pytest.mark.docker
def test_existing_images_are_never_overwritten(docker_client, base_image):
    before = {name: docker_client.images.get(name).id for name in ("debian:bookworm-slim", "debian:bookworm")}
    assert ensure_base_images(docker_client) == []
    assert {name: docker_client.images.get(name).id for name in before} == before


@pytest.mark.docker
def test_only_missing_names_are_tagged(docker_client, base_image):
    missing = f"adaptive-skill-test/debian:{uuid.uuid4().hex[:8]}"
    try:
        assert ensure_base_images(docker_client, ["debian:bookworm-slim", missing], log=lambda line: None) \
            == [missing]
        assert docker_client.images.get(missing).id == docker_client.images.get(BASE_IMAGE).id
    finally:
        docker_client.images.remove(missing)


# -- commands ----------------------------------------------------------------------------------------

@pytest.mark.docker
def test_images_build_command(tmp_path, docker_client, base_image, capsys):
    suite = tmp_path / "suite"
    task = suite / "cli-task"
    for rel, text in {"instruction.md": "Do it.", "task.toml": "[metadata]\ncategory = \"x\"\n",
                      "environment/Dockerfile": "FROM debian:bookworm-slim\nRUN echo cli > /cli\n",
                      "tests/test.sh": "exit 0\n", "solution/solve.sh": "true\n"}.items():
        (task / rel).parent.mkdir(parents=True, exist_ok=True)
        (task / rel).write_text(text)
    try:
        assert main(["images", "build", "--suite", str(suite), "--quiet"]) == 0
        assert "1 built, 0 cached, 0 failed" in capsys.readouterr().out
        assert main(["images", "build", "--suite", str(suite), "--quiet", "--workers", "1"]) == 0
        assert "0 built, 1 cached, 0 failed" in capsys.readouterr().out
    finally:
        _remove_images(docker_client, "cli-task")


def test_unreachable_engine_is_one_line(monkeypatch, capsys):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    assert main(["sandbox", "prune", "--dry-run"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: cannot reach the Docker engine:")


@pytest.mark.docker
def test_sandbox_prune_command_dry_run(docker_client, capsys):
    assert main(["sandbox", "prune", "--dry-run"]) == 0
    assert "would remove" in capsys.readouterr().out


def _remove_images(client, *task_ids: str) -> None:
    for image in client.images.list(filters={"label": "adaptive-skill.task"}):
        if image.labels.get("adaptive-skill.task") in task_ids:
            client.images.remove(image.id, force=True)
