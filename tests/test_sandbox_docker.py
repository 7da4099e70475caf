"""DockerSandbox against a real engine: the persistent shell, timeouts, exec, limits, files, parallelism."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from adaptive_skill.sandbox.base import SandboxError, SandboxLimits
from adaptive_skill.sandbox.docker_sandbox import DockerSandbox
from adaptive_skill.sandbox.engine import OWNER_LABEL, SANDBOX_LABEL

pytestmark = pytest.mark.docker

# Command lines of the container's processes, one per line (minimal images have no ps).
PROCESSES = "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done"


def processes(sandbox) -> str:
    return sandbox.exec(PROCESSES, timeout=30).output


# -- the persistent shell --------------------------------------------------------------------------

def test_cd_and_export_survive_between_commands(sandbox):
    assert sandbox.run("pwd").output == "/app\n"  # the image's WORKDIR
    assert sandbox.run("cd /tmp && export GREETING=hi && LOCAL=only-here").exit_code == 0
    assert sandbox.run("pwd; echo $GREETING $LOCAL; bash -c 'echo ${GREETING}-${LOCAL:-unset}'").output == \
        "/tmp\nhi only-here\nhi-unset\n"
    assert sandbox.cwd == "/tmp"


def test_image_files_are_there(sandbox):
    assert sandbox.run("cat hello.txt").output == "hello from the image\n"


def test_multi_line_commands_and_heredocs(sandbox):
    result = sandbox.run("X=5\ncat <<EOF\nx is $X\n'quoted' \\\\ back\nEOF\ncat <<'RAW'\n$X stays\nRAW\n"
                         "for i in 1 2; do\n  echo \"line $i\"\ndone")
    assert result.output == "x is 5\n'quoted' \\ back\n$X stays\nline 1\nline 2\n"
    assert result.exit_code == 0


def test_output_without_trailing_newline(sandbox):
    assert sandbox.run("printf 'no newline'").output == "no newline"
    assert sandbox.run("printf ''").output == ""


def test_exit_codes(sandbox):
    assert sandbox.run("true").exit_code == 0
    assert sandbox.run("false").exit_code == 1
    assert sandbox.run("(exit 42)").exit_code == 42
    assert sandbox.run("ls /does-not-exist").exit_code == 2
    assert sandbox.run("nosuchcommand").exit_code == 127


def test_syntax_errors_do_not_break_the_protocol(sandbox):
    broken = sandbox.run("echo 'unbalanced")
    assert broken.exit_code != 0 and "unexpected EOF" in broken.output
    assert sandbox.run("if then fi").exit_code != 0
    assert sandbox.run("echo still here").output == "still here\n"


def test_text_that_looks_like_the_protocol(sandbox):
    tricky = "__AS_DONE_x__0_/\\0 printf '__AS_%s_%s__' DONE"
    assert sandbox.run(f"echo {tricky!r}").output == tricky + "\n"
    traced = sandbox.run("set -x; echo traced; set +x")
    assert "traced\n" in traced.output and traced.exit_code == 0
    assert sandbox.run("echo after").output == "after\n"


def test_binary_output_is_decoded_with_replacement(sandbox):
    result = sandbox.run("printf 'ok\\xff\\xfe\\x00end'")
    assert result.output == "ok\ufffd\ufffd\x00end"
    noise = sandbox.run("head -c 200000 /dev/urandom")
    assert noise.exit_code == 0 and len(noise.output) > 0
    assert sandbox.run("echo fine").output == "fine\n"


def test_commands_reading_stdin_get_dev_null(sandbox):
    result = sandbox.run("cat; read line; echo \"read=$? line=[$line]\"")
    assert result.output == "read=1 line=[]\n"
    assert sandbox.run("echo protocol intact").output == "protocol intact\n"


def test_huge_output_is_kept_whole(sandbox):
    result = sandbox.run("seq 1 300000")
    assert result.output == "".join(f"{i}\n" for i in range(1, 300001))
    assert len(result.for_model(1000)) < 1100  # the model gets a cut; the trajectory keeps it all


def test_exit_restarts_the_shell_and_says_so(sandbox):
    sandbox.run("cd /tmp && export KEPT=no")
    result = sandbox.run("echo bye; exit 7")
    assert result.exit_code == 7 and result.shell_restarted
    assert result.output.startswith("bye\n") and "new shell" in result.output
    assert sandbox.run("pwd; echo ${KEPT:-reset}").output == "/tmp\nreset\n"
    assert not sandbox.run("true").shell_restarted


def test_set_e_failure_restarts_the_shell(sandbox):
    result = sandbox.run("set -e; false; echo unreachable")
    assert result.shell_restarted and "unreachable" not in result.output
    assert sandbox.run("false; echo survives").output == "survives\n"


# -- timeouts --------------------------------------------------------------------------------------

def test_timeout_kills_the_command_tree_keeps_older_jobs_and_the_shell(sandbox):
    sandbox.run("cd /tmp; sleep 300 &")  # a background job from an earlier command
    sandbox.run("sleep 0.1")  # (the kill rule is "started after the timed-out command began")
    result = sandbox.run("echo partial; sh -c 'sleep 301 & sleep 302'; echo after", timeout=1)
    assert result.timed_out and result.exit_code is None and not result.shell_restarted
    assert result.output == "partial\n"
    running = processes(sandbox)
    assert "sleep 301" not in running and "sleep 302" not in running
    assert "sleep 300" in running
    assert sandbox.run("pwd").output == "/tmp\n"


def test_timeout_interrupts_a_loop_inside_the_shell(sandbox):
    sandbox.run("export KEEP=yes")
    result = sandbox.run("cd /var; while :; do :; done", timeout=1)
    assert result.timed_out and not result.shell_restarted
    assert sandbox.run("pwd; echo $KEEP").output == "/var\nyes\n"


def test_timeout_kills_what_ignores_ctrl_c(sandbox):
    result = sandbox.run("bash -c 'trap \"\" INT; sleep 303'", timeout=1)
    assert result.timed_out
    assert "sleep 303" not in processes(sandbox)


def test_timeout_replaces_a_shell_that_ignores_ctrl_c(sandbox):
    sandbox.run("cd /etc")
    result = sandbox.run("trap '' INT; while :; do :; done", timeout=1)
    assert result.timed_out and result.shell_restarted and result.exit_code is None
    assert sandbox.run("pwd; echo ok").output == "/etc\nok\n"


# -- exec (outside the shell) ----------------------------------------------------------------------

def test_exec_is_a_fresh_root_process(sandbox):
    sandbox.run("cd /tmp && export ONLY_IN_SHELL=1")
    result = sandbox.exec("pwd; whoami; echo ${ONLY_IN_SHELL:-unset}; echo err >&2; exit 3")
    assert result.output == "/app\nroot\nunset\nerr\n" and result.exit_code == 3
    assert sandbox.exec("pwd", workdir="/etc").output == "/etc\n"


def test_exec_timeout(sandbox):
    result = sandbox.exec("echo started; sh -c 'sleep 304 & sleep 305'", timeout=1)
    assert result.timed_out and result.exit_code is None and result.output == "started\n"
    running = processes(sandbox)
    assert "sleep 304" not in running and "sleep 305" not in running


# -- limits and network ----------------------------------------------------------------------------

def test_container_config_limits_and_labels(make_sandbox, docker_client):
    sandbox = make_sandbox(SandboxLimits(cpus=0.5, memory_mb=300, pids=77), labels={"purpose": "test"})
    attrs = docker_client.containers.get(sandbox.name).attrs
    host = attrs["HostConfig"]
    assert host["NanoCpus"] == 500_000_000
    assert host["Memory"] == 300 * 1024 * 1024 and host["MemorySwap"] == 300 * 1024 * 1024
    assert host["PidsLimit"] == 77
    assert host["NetworkMode"] == "none" and host["Init"] is True
    labels = attrs["Config"]["Labels"]
    assert labels[SANDBOX_LABEL] == "1" and labels["purpose"] == "test" and OWNER_LABEL in labels
    assert sandbox.name.startswith("adaptive-skill-") and sandbox.info.isolated


def test_network_is_off_unless_allowed(make_sandbox):
    assert make_sandbox().run("ls /sys/class/net").output.split() == ["lo"]
    assert "eth0" in make_sandbox(SandboxLimits(network=True)).run("ls /sys/class/net").output.split()


def test_pids_limit_bounds_a_fork_bomb(make_sandbox):
    sandbox = make_sandbox(SandboxLimits(pids=40))
    # perl (essential in Debian) reports a refused fork at once, where bash would retry for seconds.
    bomb = ("perl -e 'my @kids; for (1..200) { my $p = fork(); last unless defined $p; "
            "if (!$p) { sleep 30; exit 0 } push @kids, $p } print scalar(@kids), qq(\\n); kill 9, @kids'")
    result = sandbox.run(bomb, timeout=60)
    assert 0 < int(result.output.strip()) < 40
    assert sandbox.run("echo alive").output == "alive\n"


def test_memory_limit_kills_a_hog(make_sandbox):
    sandbox = make_sandbox(SandboxLimits(memory_mb=64))
    result = sandbox.run("perl -e '$x = q(a) x (300 * 1024 * 1024); print length($x)'", timeout=60)
    assert result.exit_code == 137  # SIGKILL from the OOM killer
    assert sandbox.run("echo alive").output == "alive\n"


# -- files -----------------------------------------------------------------------------------------

def test_copy_in_and_out(sandbox, tmp_path):
    source = tmp_path / "tests"
    (source / "sub").mkdir(parents=True)
    (source / "test.sh").write_text("#!/bin/bash\necho 1\n")
    (source / "test.sh").chmod(0o755)
    (source / "sub" / "data.bin").write_bytes(bytes(range(256)))
    sandbox.copy_in(source, "/deep/new/tests")  # parents created
    sandbox.copy_in(source / "test.sh", "/single/run.sh")
    assert sandbox.run("/deep/new/tests/test.sh && /single/run.sh && stat -c %U /deep/new/tests/test.sh").output \
        == "1\n1\nroot\n"

    sandbox.run("mkdir -p /out/d && echo result > /out/d/r.txt && echo top > /out/t.txt")
    sandbox.copy_out("/out", tmp_path / "back" / "out")
    assert (tmp_path / "back" / "out" / "d" / "r.txt").read_text() == "result\n"
    sandbox.copy_out("/deep/new/tests/sub/data.bin", tmp_path / "data.bin")
    assert (tmp_path / "data.bin").read_bytes() == bytes(range(256))
    sandbox.copy_out("/deep/new/tests/test.sh", tmp_path / "test.sh")
    assert (tmp_path / "test.sh").stat().st_mode & 0o777 == 0o755
    with pytest.raises(SandboxError, match="does not exist"):
        sandbox.copy_out("/nope", tmp_path / "nope")
    with pytest.raises(ValueError, match="absolute"):
        sandbox.copy_in(source, "relative/path")


# -- many sandboxes, cleanup -----------------------------------------------------------------------

def test_parallel_sandboxes_are_independent(docker_client, sandbox_image, test_session_labels):
    sandboxes = [DockerSandbox(sandbox_image, client=docker_client, labels=test_session_labels) for _ in range(4)]
    outputs: dict[int, str] = {}

    def work(i: int) -> None:
        sandboxes[i].start()
        sandboxes[i].run(f"echo {i} > /mine")
        outputs[i] = sandboxes[i].run("cat /mine; hostname").output

    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len({s.name for s in sandboxes}) == 4
        assert [outputs[i].split()[0] for i in range(4)] == ["0", "1", "2", "3"]
        assert len({outputs[i].split()[1] for i in range(4)}) == 4  # four containers
    finally:
        for sandbox in sandboxes:
            sandbox.close()
    for sandbox in sandboxes:
        assert not _exists(docker_client, sandbox.name)


def test_container_removed_after_an_exception(docker_client, sandbox_image, test_session_labels):
    sandbox = DockerSandbox(sandbox_image, client=docker_client, labels=test_session_labels)
    with pytest.raises(RuntimeError, match="boom"), sandbox:
        assert _exists(docker_client, sandbox.name)
        raise RuntimeError("boom")
    assert not _exists(docker_client, sandbox.name)
    sandbox.close()  # idempotent
    with pytest.raises(SandboxError, match="closed"):
        sandbox.run("true")


def test_missing_image_is_a_sandbox_error(docker_client, test_session_labels):
    sandbox = DockerSandbox("adaptive-skill-test/no-such-image:none", client=docker_client,
                            labels=test_session_labels)
    with pytest.raises(SandboxError, match="not present"):
        sandbox.start()
    assert not _exists(docker_client, sandbox.name)


def test_commands_survive_a_copy_during_a_session(sandbox, tmp_path: Path):
    # copy_in uses exec, which must not disturb the persistent shell's state
    sandbox.run("cd /tmp && export A=1")
    (tmp_path / "f").write_text("x")
    sandbox.copy_in(tmp_path / "f", "/tmp/f")
    assert sandbox.run("pwd; echo $A; cat f").output == "/tmp\n1\nx"


def _exists(client, name: str) -> bool:
    return bool(client.containers.list(all=True, filters={"name": f"^/{name}$"}))


def test_a_container_removed_underneath_gives_sandbox_errors(sandbox, docker_client, tmp_path):
    docker_client.containers.get(sandbox.name).remove(force=True)
    with pytest.raises(SandboxError):
        sandbox.run("echo hi")
    with pytest.raises(SandboxError):
        sandbox.exec("echo hi")
    with pytest.raises(SandboxError):
        sandbox.copy_out("/etc/hostname", tmp_path / "h")
    sandbox.close()  # and closing still works
