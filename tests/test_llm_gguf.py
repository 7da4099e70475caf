"""Assembling a split GGUF file into the cache: size and sha256 checked, atomic, safe when two
processes do it at once. Real files on disk; the parts are located through `locate`, which the
real code points at installed distributions (the real Qwen parts are assembled in test_llm_qwen)."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from pathlib import Path

import pytest

from adaptive_skill.llm import gguf
from adaptive_skill.llm.base import LLMConfigError


def make_split(tmp_path: Path, chunks: list[bytes], *, sha256: str | None = None) -> tuple[gguf.SplitFile, dict]:
    files = {}
    for index, chunk in enumerate(chunks, 1):
        path = tmp_path / "dist" / f"part{index:02d}.bin"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(chunk)
        files[(f"dist-part{index}", f"pkg{index}/data/part{index:02d}.bin")] = path
    whole = b"".join(chunks)
    split = gguf.SplitFile(name="model.gguf", parts=tuple(files), size=len(whole),
                           sha256=sha256 or hashlib.sha256(whole).hexdigest())
    return split, files


def locator(files: dict):
    def locate(distribution: str, path: str, hint: str) -> Path:
        return files[(distribution, path)]
    return locate


def test_parts_are_concatenated_in_order_into_the_cache(tmp_path):
    chunks = [os.urandom(5000), os.urandom(1), os.urandom(12345)]
    split, files = make_split(tmp_path, chunks)
    path = gguf.assemble(split, "hint", directory=tmp_path / "cache", locate=locator(files))
    assert path == tmp_path / "cache" / "models" / "model.gguf"
    assert path.read_bytes() == b"".join(chunks)
    assert sorted(p.name for p in path.parent.iterdir()) == [".model.gguf.lock", "model.gguf"]  # no temp left


def test_an_assembled_file_is_not_rebuilt(tmp_path):
    split, files = make_split(tmp_path, [b"a" * 100, b"b" * 100])
    path = gguf.assemble(split, "hint", directory=tmp_path, locate=locator(files))
    stamp = path.stat().st_mtime_ns
    for part in files.values():
        part.unlink()  # the second call must not even need the parts
    assert gguf.assemble(split, "hint", directory=tmp_path, locate=locator(files)) == path
    assert path.stat().st_mtime_ns == stamp


def test_a_digest_mismatch_is_one_line_and_leaves_nothing(tmp_path):
    split, files = make_split(tmp_path, [b"x" * 1000, b"y" * 24], sha256="0" * 64)
    with pytest.raises(LLMConfigError) as caught:
        gguf.assemble(split, "hint", directory=tmp_path / "cache", locate=locator(files))
    message = str(caught.value)
    assert "\n" not in message and "1,024 bytes" in message and "expected 1,024 bytes with sha256 0000" in message
    assert "dist-part1, dist-part2" in message and "reinstall" in message
    assert [p.name for p in (tmp_path / "cache" / "models").iterdir()] == [".model.gguf.lock"]


def test_a_truncated_part_is_a_size_mismatch(tmp_path):
    chunks = [b"x" * 1000, b"y" * 24]
    split, files = make_split(tmp_path, chunks)
    files[("dist-part2", "pkg2/data/part02.bin")].write_bytes(b"y" * 20)
    with pytest.raises(LLMConfigError, match=r"gave 1,020 bytes .* expected 1,024 bytes"):
        gguf.assemble(split, "hint", directory=tmp_path, locate=locator(files))
    assert not (tmp_path / "models" / "model.gguf").exists()


def test_a_missing_distribution_names_it_and_the_fix():
    with pytest.raises(LLMConfigError, match=r"^no-such-dist-xyz is not installed: pip install it$"):
        gguf.distribution_file("no-such-dist-xyz", ".gguf", "pip install it")


def test_cache_dir_follows_the_override_then_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv(gguf.CACHE_ENV, str(tmp_path / "mine"))
    assert gguf.cache_dir() == tmp_path / "mine"
    monkeypatch.delenv(gguf.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert gguf.cache_dir() == tmp_path / "xdg" / "adaptive-skill"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert gguf.cache_dir() == Path.home() / ".cache" / "adaptive-skill"


def test_an_unwritable_cache_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    split, files = make_split(tmp_path, [b"a"])
    with pytest.raises(LLMConfigError, match=r"cannot create the model cache .*: .* \(set ADAPTIVE_SKILL_CACHE_DIR\)"):
        gguf.assemble(split, "hint", directory=blocker, locate=locator(files))


def _assemble_in_child(args) -> tuple[str, int]:
    split, files, directory, log = args
    real_concatenate = gguf._concatenate_verified

    def logged(parts, split, target):  # count real assemblies, across processes
        with open(log, "a") as handle:
            handle.write("assembled\n")
        real_concatenate(parts, split, target)

    gguf._concatenate_verified = logged
    path = gguf.assemble(split, "hint", directory=directory, locate=locator(files))
    return str(path), path.stat().st_size


def test_concurrent_first_use_assembles_once(tmp_path):
    chunks = [os.urandom(3 << 20), os.urandom(3 << 20), os.urandom(1 << 20)]  # big enough to overlap
    split, files = make_split(tmp_path, chunks)
    log = tmp_path / "log"
    context = multiprocessing.get_context("fork")
    with context.Pool(4) as pool:
        results = pool.map(_assemble_in_child, [(split, files, tmp_path / "cache", log)] * 4)
    assert {r for r in results} == {(str(tmp_path / "cache" / "models" / "model.gguf"), split.size)}
    assert log.read_text() == "assembled\n"
    assert (tmp_path / "cache" / "models" / "model.gguf").read_bytes() == b"".join(chunks)


# ----------------------------------------------------------------------------------------------
# The text protocol's grammar (agent/protocol.py): built from the parser's own constants


def test_the_grammar_blank_class_is_exactly_what_strip_removes():
    import re

    from adaptive_skill.trajectory import textproto as protocol

    listed = set()
    for low, high in re.findall(r"\\u([0-9a-f]{4})(?:-\\u([0-9a-f]{4}))?", protocol._WHITESPACE):
        listed.update(chr(c) for c in range(int(low, 16), int(high or low, 16) + 1))
    assert listed == {chr(c) for c in range(0x110000) if chr(c).isspace()}


def test_the_grammar_offers_exactly_the_given_tools():
    from adaptive_skill.agent.protocol import text_protocol_grammar

    grammar = text_protocol_grammar(("bash", "submit"))
    assert "block ::= bash-block | submit-block\n" in grammar and "read_skill" not in grammar
    with pytest.raises(ValueError, match="no text-protocol block"):
        text_protocol_grammar(("bash", "rm_rf"))
    with pytest.raises(ValueError):
        text_protocol_grammar(())


def test_the_grammar_bounds_fit_the_token_limit():
    """At one token per character (the worst case for ASCII: Qwen spells digits one by one) the
    longest sentence of the grammar fits max_tokens; the reasoning is whole lines."""
    import re

    from adaptive_skill.trajectory.textproto import FENCE_CHARS, TAIL_CHARS, reasoning_chars, text_protocol_grammar

    for max_tokens in (64, 96, 256, 384, 1024, 3072, 4096, 8192):
        grammar = text_protocol_grammar(max_tokens=max_tokens)
        lines = int(re.search(r'reasoning ::= \(line "\\n"\)\{0,(\d+)\}', grammar).group(1))
        units = int(re.search(r"line ::= unit\{0,(\d+)\}", grammar).group(1))
        body = int(re.search(r"visible body\{0,(\d+)\}", grammar).group(1))
        submit = int(re.search(r"\[\^`\\n\]\{0,(\d+)\}", grammar).group(1))
        name = int(re.search(r"\[A-Za-z0-9_.-\]\{1,(\d+)\}", grammar).group(1))
        assert 'unit ::= [^`\\n] | "`" [^`\\n]' in grammar and "body ::= [^`]" in grammar  # no fence can form
        assert reasoning_chars(lines, units) + FENCE_CHARS + max(1 + body, submit, name) + TAIL_CHARS <= max_tokens
        assert body >= (max_tokens - FENCE_CHARS - TAIL_CHARS) // 2 or body == 1500  # room for a real command
    full = text_protocol_grammar(max_tokens=4096)  # the 1.5B's agent budget: nothing shrinks
    assert 'reasoning ::= (line "\\n"){0,3}' in full and "unit{0,400}" in full and "body{0,1500}" in full
    with pytest.raises(ValueError, match="no room"):
        text_protocol_grammar(max_tokens=40)


def test_a_shell_block_may_say_bash_sh_or_shell_and_each_parses():
    from adaptive_skill.trajectory.textproto import BASH_LANGUAGES, parse_text, text_protocol_grammar

    assert '"```" ("bash" | "sh" | "shell") "\\n"' in text_protocol_grammar()
    for language in BASH_LANGUAGES:
        action = parse_text(f"Replace `a` with `b` in place.\n```{language}\nsed -i 's/a/b/' f\n```")
        assert (action.tool, action.argument) == ("bash", "sed -i 's/a/b/' f")


def test_a_tool_named_in_a_bash_block_is_that_tool_and_an_echoed_observation_is_refused():
    """The 1.5B wrote its summary as ```bash\\nsubmit\\n..., and ran `[exit code 0]` copied from an
    observation: no program has either name, so the first is the tool it names and the second a
    format problem, never a command run in the sandbox."""
    import pytest as _pytest

    from adaptive_skill.trajectory.textproto import FormatProblem, parse_text

    submit = parse_text("```bash\nsubmit\nConverted the file:\n  wrote /app/data/people.csv.\n```")
    assert (submit.tool, submit.argument) == ("submit", "Converted the file: wrote /app/data/people.csv.")
    assert parse_text("```bash\nsubmit\n```").argument == ""
    skill = parse_text("```bash\nread_skill check-your-work\n```")
    assert (skill.tool, skill.argument) == ("read_skill", "check-your-work")
    with _pytest.raises(FormatProblem, match="needs a skill name"):
        parse_text("```bash\nread_skill\n```")
    for echoed in ("[exit code 0]", "Observation (bash):\nls", "[command timed out and was killed]"):
        with _pytest.raises(FormatProblem, match="repeats the observation"):
            parse_text(f"```bash\n{echoed}\n```")
    assert parse_text("```bash\nsubmitter --run\n```").tool == "bash"  # only the exact tool name
