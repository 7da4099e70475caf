"""Which common programs a task's container has (sandbox/programs.py): probed before the agent starts,
written beside the attempt's observations and told to the structured evolver. Whatever the container
or a file says, only names of the fixed list are kept."""

import json
import warnings

from adaptive_skill.harness.attempt import probe_programs
from adaptive_skill.observe.observations import PROGRAMS as PROGRAMS_FILE
from adaptive_skill.observe.observations import ObservedItem, write_observations
from adaptive_skill.sandbox.local_sandbox import LocalSandbox
from adaptive_skill.sandbox.programs import PROGRAMS, Programs, read_probe, sentence


def test_the_probe_output_keeps_only_names_of_the_list():
    found = read_probe("python3\n\x1b[31mpython3\ngit\nevil-tool\njq; rm -rf /\n  perl  \n")
    assert found.installed == ("python3", "perl", "git")
    assert "jq" in found.missing and "evil-tool" not in found.missing
    assert set(found.installed) | set(found.missing) == set(PROGRAMS)


def test_a_programs_file_is_validated():
    """programs.json sits beside files derived from hostile trajectories: wrong types, unknown names
    and a name in both lists do not get through; what is not such an object is no fact at all."""
    data = {"installed": ["python3", "evil\x1b", 3, None], "missing": ["python3", "jq", {"x": 1}]}
    assert Programs.from_dict(data) == Programs(("python3",), ("jq",))
    for garbled in ([], "python3", None, {}, {"installed": "python3"}, {"installed": ["nope"]}):
        assert Programs.from_dict(garbled) is None


def test_the_sentence_names_what_every_container_had_and_what_none_had():
    one = Programs(("python3", "git"), ("jq", "zip"))
    other = Programs(("python3", "zip"), ("jq", "git"))
    assert sentence([one, other]) == "Installed in the tasks' containers: python3. Not installed there: jq."
    assert sentence([]) == ""


def test_the_probe_runs_in_a_real_shell_and_is_none_when_it_cannot():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sandbox = LocalSandbox()
    with sandbox:
        found = probe_programs(sandbox)
    assert found is not None and "python3" in found.installed  # this machine's (the tests run on it)
    assert probe_programs(sandbox) is None  # closed: the probe is a hint, never a crash


def test_observations_hold_the_programs_per_task_and_in_the_index(tmp_path):
    items = [ObservedItem(task="a", verdict={"score": 2}, signals={},
                          programs={"installed": ["python3", "git"], "missing": ["jq"]}),
             ObservedItem(task="b", verdict={"score": 9}, signals={}, programs=None)]
    write_observations(tmp_path / "obs", items, {"a": "do a", "b": "do b"}, labels=None)
    assert json.loads((tmp_path / "obs" / "a" / PROGRAMS_FILE).read_text()) == items[0].programs
    assert not (tmp_path / "obs" / "b" / PROGRAMS_FILE).exists()
    index = (tmp_path / "obs" / "index.md").read_text()
    assert "Installed in the tasks' containers: python3, git. Not installed there: jq." in index
    assert ObservedItem.from_dict(items[0].to_dict()).programs == items[0].programs
