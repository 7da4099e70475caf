"""Families of plain-text work: counting, filtering and editing lines of logs and configs."""

from generate import Family, Instance

# (key, file, how the file is made (python body writing FILE), expected count, output path, wording)
_COUNT = [
    ("access-log", "/app/logs/access.log", 1234, "/app/line_count.txt",
     "Count the lines in `{file}` and write only that number to `{out}`: the file must hold just the digits "
     "(for a 17-line file it would be `17`), with no file name or label next to them."),
    ("errors-txt", "/srv/report/errors.txt", 87, "/srv/report/errors_total.txt",
     "How many lines does `{file}` have? Put just the number in `{out}`, nothing else on the line (not the "
     "file's name either)."),
    ("users-csv", "/data/users.csv", 512, "/data/count.txt",
     "Write the number of lines of `{file}` (the header line counts too) into `{out}`; the file must hold only "
     "the number, which a script will read as an integer."),
    ("syslog", "/var/log/app/syslog.1", 3001, "/root/syslog_lines",
     "I need the line count of `{file}`. Save it as a bare number in `{out}`: the whole content of that file "
     "is the count, e.g. `305`, and no path."),
    ("notes-md", "/home/dev/notes.md", 42, "/home/dev/notes.count",
     "Store how many lines `{file}` contains in `{out}` (only the number)."),
    ("queue-tsv", "/opt/queue/jobs.tsv", 250, "/opt/queue/njobs.txt",
     "Count the lines of the tab-separated file `{file}` and write that count to the file `{out}`, which "
     "should contain only the count."),
    ("build-log", "/app/build/output.log", 999, "/app/build/lines.txt",
     "Find out how many lines are in `{file}` and write the count alone to `{out}`: a number and nothing "
     "more, no file name after it."),
    ("hosts-list", "/etc/inventory/hosts.list", 64, "/tmp/host_count.txt",
     "`{file}` lists one host per line. Write how many lines it has, just the number, to `{out}`."),
]


def _count_lines() -> Family:
    instances = []
    for key, file, count, out, wording in _COUNT:
        setup = f"""
        mkdir -p "$(dirname {file})" "$(dirname {out})"
        python3 - <<'PY'
        with open("{file}", "w") as f:
            for i in range({count}):
                f.write(f"entry {{i}} host-{{i % 17}} value={{i * 31 % 1000}}\\n")
        PY
        """
        checks = f"""
        got = read("{out}")
        check(got is not None, "{out} exists")
        check(got is not None and got.strip() == "{count}", f"it holds only the number {count} (got {{got!r}})")
        """
        instances.append(Instance(key=key, instruction=wording.format(file=file, out=out), setup=setup,
                                  solve=f"wc -l < {file} > {out}\n", checks=checks, tags=("wc",)))
    return Family(name="count-lines", category="text-processing", recipe="wc -l < FILE > OUT",
                  slip="`wc -l FILE` also prints the file name; only the number is asked for",
                  instances=instances)


FAMILIES = [_count_lines()]
