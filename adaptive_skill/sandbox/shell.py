"""A persistent bash driven by a sentinel protocol, independent of where the bash runs.

One long-lived `bash -i` reads commands on its stdin. Each command is sent as a single line:

    eval $'<command, escaped>' < /dev/null; printf '__AS_%s_%s__%d_%s\\0' DONE <tag> $? "$PWD" >&87

- `eval` of an ANSI-C quoted string: multi-line commands, heredocs and unbalanced quotes arrive as
  one line, so a syntax error cannot make bash swallow the sentinel.
- `< /dev/null`: a command that reads stdin must not eat the protocol.
- the sentinel is assembled by printf from pieces, so `set -x` traces never contain it, and it
  goes to fd 87 (a copy of stdout) so `exec >file` in a command does not hide it.
- bash is interactive (`-i`, no job control since there is no tty) because only an interactive
  shell treats SIGINT like a terminal's Ctrl-C: the whole line is abandoned, loops included, and
  the shell survives. That is how a timeout stops a command while cd and exports are kept.

A backend provides the transport: `spawn_shell()` starts bash and returns a ShellChannel, and
`run_helper(script, *args)` runs a short `bash -c` out of band (to signal the shell).
"""

from __future__ import annotations

import re
import secrets
import time
from typing import Protocol

from adaptive_skill.sandbox.base import CommandResult, SandboxError

# stderr joins stdout before bash says a word: Docker relays the two streams separately, so
# its startup chatter on stderr could otherwise arrive after the handshake and leak into output.
SHELL_ARGV = ["bash", "-c", "exec bash --noprofile --norc --noediting -i 2>&1"]
SENTINEL_FD = 87
_POLL_SEC = 1.0  # how long silence lasts before we check whether the shell is still alive

# What a timeout does, run out of band with the shell's pid, the command's start (in clock ticks
# since boot) and whether orphans count:
# 1. Ctrl-C for the shell's process group: the interactive shell abandons the whole line, loops
#    included. Background jobs started earlier ignore SIGINT (no job control), so they survive.
# 2. SIGKILL for every process tree the command started: children of the shell (and, in a
#    container, orphans adopted by PID 1) started after the command began, with their
#    descendants; several passes, because a process may fork while we look. Older jobs are spared.
# Twice, because a child killed by SIGKILL (it ignored SIGINT) lets the shell go on with the rest
# of the line, and the second Ctrl-C stops that. Pure bash over /proc: minimal images have no ps or pkill.
INTERRUPT_SCRIPT = r"""
shell=$1 since=$2 orphans=$3
kill_tree() {
  local pass p pp d s i
  for pass in 1 2 3 4 5; do
    unset parent start; declare -A parent=() start=()
    for d in /proc/[0-9]*; do
      read -r s < "$d/stat" 2>/dev/null || continue
      s=${s##*) }; set -- $s
      [[ $1 == Z ]] && continue   # dead already, waiting to be reaped
      parent[${d#/proc/}]=$2; start[${d#/proc/}]=${20}
    done
    victims=()
    for p in "${!parent[@]}"; do
      pp=${parent[$p]}
      if [[ $pp == "$shell" || ( $orphans == 1 && $pp == 1 && $p != "$shell" ) ]] \
         && (( ${start[$p]} >= since )); then victims+=("$p"); fi
    done
    i=0
    while (( i < ${#victims[@]} )); do
      for p in "${!parent[@]}"; do [[ ${parent[$p]} == "${victims[i]}" ]] && victims+=("$p"); done
      i=$((i + 1))
    done
    (( ${#victims[@]} )) || return 0
    kill -KILL "${victims[@]}" 2>/dev/null
  done
}
for round in 1 2; do
  kill -INT -- "-$shell" 2>/dev/null
  sleep 0.1   # a process that dies of SIGINT (not SIGKILL) makes the shell drop the rest of the line
  [[ $since == none ]] || kill_tree
done
:
"""
KILL_SHELL_SCRIPT = 'kill -KILL -- "$1" 2>/dev/null; :'


class ShellChannel(Protocol):
    """One running bash process: its stdin, and its combined stdout+stderr."""

    def send(self, data: bytes) -> None: ...

    def recv(self, timeout: float) -> bytes | None:
        """Bytes read within `timeout` (b"" if none arrived), None at end of stream."""
        ...

    def alive(self) -> bool: ...

    def exit_code(self) -> int | None: ...

    def close(self) -> None: ...


class ShellBackend(Protocol):
    def spawn_shell(self) -> ShellChannel: ...

    def run_helper(self, script: str, *args: str) -> None: ...


class _ShellExited(Exception):
    pass


def ansi_c_quote(text: str) -> str:
    """Quote `text` as a bash $'...' literal on one line (every byte outside printable ASCII escaped)."""
    if "\0" in text:
        raise ValueError("a command cannot contain a NUL byte")
    out = []
    for byte in text.encode("utf-8", "surrogateescape"):
        if 0x20 <= byte < 0x7F and byte not in (0x27, 0x5C):  # ' and \ must be escaped
            out.append(chr(byte))
        else:
            out.append(f"\\x{byte:02x}")
    return "$'" + "".join(out) + "'"


def _marker_line(kind: str, tag: str, fields: str) -> str:
    return f"printf '__AS_%s_%s__{fields}\\0' {kind} {tag}"


class ShellSession:
    """The persistent shell of one sandbox. Not thread-safe: one command at a time."""

    def __init__(self, backend: ShellBackend, workdir: str | None = None, *, kill_orphans: bool,
                 start_timeout: float = 30.0):
        self._backend = backend
        self._kill_orphans = kill_orphans
        self._start_timeout = start_timeout
        self._nonce = secrets.token_hex(4)
        self._seq = 0
        self._channel: ShellChannel | None = None
        self._buf = bytearray()
        self.pid = 0  # the shell's pid where it runs (container pid namespace for Docker)
        self._uptime_offset: float | None = None
        self.cwd = workdir

    def start(self) -> None:
        channel = self._backend.spawn_shell()
        self._channel, self._buf = channel, bytearray()
        tag = self._next_tag()
        cd = f"cd -- {ansi_c_quote(self.cwd)} 2>/dev/null; " if self.cwd else ""
        channel.send((
            f"exec 2>&1 {SENTINEL_FD}>&1; PS1= PS2= PS0=; unset PROMPT_COMMAND HISTFILE MAILCHECK; "
            f"set +H +o history; {cd}read -r __as_up _ < /proc/uptime; "
            f"{_marker_line('READY', tag, '%d_%s_%s')} $$ \"$__as_up\" \"$PWD\" >&{SENTINEL_FD}; "
            "unset __as_up\n"
        ).encode())
        try:
            found = self._read_marker(f"__AS_READY_{tag}__".encode(), time.monotonic() + self._start_timeout)
        except _ShellExited:
            found = None
        if found is None:
            self.close()
            raise SandboxError("the sandbox shell did not start (is bash installed in the image?)")
        pid, uptime, cwd = found[1].split(b"_", 2)
        self.pid, self.cwd = int(pid), cwd.decode("utf-8", "replace")
        # The kernel clock where the shell runs vs ours: lets the kill helper tell which processes
        # a command started (uptime is in 1/100 s, the unit of a process's start time in /proc).
        self._uptime_offset = float(uptime) - time.monotonic() if uptime else None
        self._buf.clear()  # (bash's startup chatter, "no job control in this shell", came before READY)

    def close(self) -> None:
        if self._channel is not None:
            self._channel.close()
            self._channel = None

    def run(self, command: str, timeout: float | None = None) -> CommandResult:
        if self._channel is None:
            self.start()
        line = ansi_c_quote(command)  # raises on NUL before anything is sent
        tag = self._next_tag()
        started = time.monotonic()
        deadline = started + timeout if timeout is not None else None
        try:
            self._send(f"eval {line} < /dev/null; {_marker_line('DONE', tag, '%d_%s')} $? \"$PWD\" "
                       f">&{SENTINEL_FD}\n")
            found = self._read_marker(f"__AS_DONE_{tag}__".encode(), deadline)
        except _ShellExited:
            return self._after_exit(started)
        if found is None:
            return self._after_timeout(tag, started)
        output, fields = found
        code, _, cwd = fields.partition(b"_")
        self.cwd = cwd.decode("utf-8", "replace")
        return CommandResult(output=_decode(output), exit_code=int(code),
                             duration_sec=time.monotonic() - started)

    # -- internals ---------------------------------------------------------------------------

    def _next_tag(self) -> str:
        self._seq += 1
        return f"{self._nonce}x{self._seq}"

    def _send(self, text: str) -> None:
        assert self._channel is not None
        try:
            self._channel.send(text.encode())
        except OSError as exc:
            raise _ShellExited from exc

    def _read_marker(self, marker: bytes, deadline: float | None) -> tuple[bytes, bytes] | None:
        """Read until `marker...\\0`; return (output before it, fields after it), None at the deadline.

        Bytes after the terminator stay buffered (late output of background jobs belongs to the
        next command, as on a terminal)."""
        assert self._channel is not None
        buf, search_from = self._buf, 0
        while True:
            at = buf.find(marker, search_from)
            if at >= 0:
                end = buf.find(b"\0", at + len(marker))
                if end >= 0:
                    output, fields = bytes(buf[:at]), bytes(buf[at + len(marker):end])
                    del buf[:end + 1]
                    return output, fields
                search_from = at
            else:
                search_from = max(0, len(buf) - len(marker))
            wait = _POLL_SEC if deadline is None else min(_POLL_SEC, deadline - time.monotonic())
            if wait <= 0:
                return None
            data = self._channel.recv(wait)
            if data is None:
                raise _ShellExited
            if data:
                buf += data
            elif not self._channel.alive():  # exited, but a background job still holds the pipe
                raise _ShellExited

    def _after_exit(self, started: float) -> CommandResult:
        """The command ended the shell (`exit`, `set -e`, OOM): report it and start a new shell."""
        assert self._channel is not None
        output, code = bytes(self._buf), self._channel.exit_code()
        self._restart()
        note = f"[the shell exited with code {code}; a new shell was started in {self.cwd}]"
        return CommandResult(output=_with_note(_decode(output), note), exit_code=code,
                             duration_sec=time.monotonic() - started, shell_restarted=True)

    def _after_timeout(self, tag: str, started: float) -> CommandResult:
        """Ctrl-C the command; if it does not stop, kill its process trees; at worst, the shell."""
        sync = f"__AS_SYNC_{tag}__".encode()
        done = f"__AS_DONE_{tag}__".encode()
        restarted = False
        before = len(self._buf)  # output the command printed before we interrupted it
        try:
            self._interrupt(started)
            self._send(f"{_marker_line('SYNC', tag, '%s')} \"$PWD\" >&{SENTINEL_FD}\n")
            found = self._read_marker(sync, time.monotonic() + 3.0)
            if found is None:  # still busy: the shell itself ignores SIGINT (the command trapped it)
                raise _ShellExited
            output, cwd = found
            self.cwd = cwd.decode("utf-8", "replace")
            if not output[before:].strip(b"\n"):
                output = output[:before]  # only the newline bash prints for each Ctrl-C
        except _ShellExited:
            output = bytes(self._buf)
            self._backend.run_helper(KILL_SHELL_SCRIPT, str(self.pid))
            self._restart()
            restarted = True
        at = output.find(done)  # the command may have finished just as the deadline passed
        text = _decode(output[:at] if at >= 0 else output)
        if restarted:
            text = _with_note(text, f"[the command did not stop; a new shell was started in {self.cwd}]")
        return CommandResult(output=text, exit_code=None, timed_out=True,
                             duration_sec=time.monotonic() - started, shell_restarted=restarted)

    def _interrupt(self, started: float) -> None:
        """Ctrl-C the command, and kill every process tree it started (see INTERRUPT_SCRIPT)."""
        # The command's start on the clock where it runs. Our estimate of that clock lags by up to
        # a tick, which moves `since` earlier: no process of the command can be missed.
        since = "none" if self._uptime_offset is None else str(int((started + self._uptime_offset) * 100))
        self._backend.run_helper(INTERRUPT_SCRIPT, str(self.pid), since, "1" if self._kill_orphans else "0")

    def _restart(self) -> None:
        self.close()
        self.start()  # in the last known cwd; exported variables are lost


# An interactive bash without a terminal says this whenever a child dies of a signal; a real
# terminal never shows it, so neither do we.
_TTY_NOISE = re.compile(rb"^bash: \[\d+: \d+ \(\d+\)\] tcsetattr: Inappropriate ioctl for device\n", re.M)


def read_to_end(recv, deadline: float | None) -> tuple[bytes, bool]:
    """All output of a channel's `recv(timeout)` until the end of stream (True) or `deadline`
    (False); `recv` returns b"" when nothing came in time and None at the end."""
    out = bytearray()
    while True:
        wait = 3600.0 if deadline is None else deadline - time.monotonic()
        if wait <= 0:
            return bytes(out), False
        data = recv(wait)
        if data is None:
            return bytes(out), True
        out += data


def _decode(data: bytes) -> str:
    if b"tcsetattr" in data:
        data = _TTY_NOISE.sub(b"", data)
    return data.decode("utf-8", errors="replace")


def _with_note(text: str, note: str) -> str:
    separator = "\n" if text and not text.endswith("\n") else ""
    return f"{text}{separator}{note}\n"
