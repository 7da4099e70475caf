import subprocess
import sys

FAILS = []
REPO = "/app/libcalc"
OLD, NEW = "jane@old-corp.example", "jane.roe@newco.example"


def check(cond, msg):
    print(("PASS " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


def git(*args):
    r = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    return r.returncode, r.stdout.strip()


FMT = "--format=%T|%s|%an|%ae|%aI|%cn|%ce|%cI"
ORIG = {
    "main": """
e40a75f082192a9f9b536b52314ee3b9d82f2a12|Add tests|Lee Noe|lee@newco.example|2023-02-10T12:00:00+02:00|Lee Noe|lee@newco.example|2023-02-10T12:30:00+02:00
8da65a02a8fe462b9bcce0ca47c614447df2b345|Add division|Sam Poe|sam@newco.example|2023-10-01T08:00:00+00:00|Jane Roe|jane@old-corp.example|2023-10-02T08:00:00+00:00
be0e49ced5f6e52a78662aa92641cffe4f8d8962|Document API|Jane Roe|jane@old-corp.example|2023-09-18T12:00:00+02:00|Jane Roe|jane@old-corp.example|2023-09-18T12:30:00+02:00
6a5abf43f5ab33ddd7d5246036fa807844f6e3b5|Add multiplication|Lee Noe|lee@newco.example|2023-08-17T12:00:00+02:00|Lee Noe|lee@newco.example|2023-08-17T12:30:00+02:00
05fb51aba5162f4f7c5bf27e8187e825858d3a64|Fix rounding|Jane Roe|jane@old-corp.example|2023-05-14T12:00:00+02:00|Jane Roe|jane@old-corp.example|2023-05-14T12:30:00+02:00
242985208caf6b4065ea2a709a942d71c7826823|Add subtraction|Jane Roe|jane@old-corp.example|2023-04-13T12:00:00+02:00|Jane Roe|jane@old-corp.example|2023-04-13T12:30:00+02:00
ab3aae168c3a96658b21f7c6b4068889b1d1c487|Add README|Sam Poe|sam@newco.example|2023-03-12T12:00:00+02:00|Sam Poe|sam@newco.example|2023-03-12T12:30:00+02:00
0b6d5c10c5ed585e980814e1d211d6b65ed10266|Initial calculator|Jane Roe|jane@old-corp.example|2023-02-11T12:00:00+02:00|Jane Roe|jane@old-corp.example|2023-02-11T12:30:00+02:00
""",
    "release/1.x": """
36df7a74219ada38a3b9232121a81f1b59d9e4e7|Bump version to 1.0.1|Jane Roe|jane@old-corp.example|2023-07-16T12:00:00+02:00|Jane Roe|jane@old-corp.example|2023-07-16T12:30:00+02:00
de7d2ecf6d51a158cc1290fb3edb0cdd89c9e8e3|Backport fix|Sam Poe|sam@newco.example|2023-06-15T12:00:00+02:00|Sam Poe|sam@newco.example|2023-06-15T12:30:00+02:00
05fb51aba5162f4f7c5bf27e8187e825858d3a64|Fix rounding|Jane Roe|jane@old-corp.example|2023-05-14T12:00:00+02:00|Jane Roe|jane@old-corp.example|2023-05-14T12:30:00+02:00
242985208caf6b4065ea2a709a942d71c7826823|Add subtraction|Jane Roe|jane@old-corp.example|2023-04-13T12:00:00+02:00|Jane Roe|jane@old-corp.example|2023-04-13T12:30:00+02:00
ab3aae168c3a96658b21f7c6b4068889b1d1c487|Add README|Sam Poe|sam@newco.example|2023-03-12T12:00:00+02:00|Sam Poe|sam@newco.example|2023-03-12T12:30:00+02:00
0b6d5c10c5ed585e980814e1d211d6b65ed10266|Initial calculator|Jane Roe|jane@old-corp.example|2023-02-11T12:00:00+02:00|Jane Roe|jane@old-corp.example|2023-02-11T12:30:00+02:00
""",
}
for branch, table in ORIG.items():
    want = table.replace(OLD, NEW).strip().splitlines()
    rc, got = git("log", FMT, branch)
    check(rc == 0 and got.splitlines() == want, f"{branch}: history rewritten exactly as required")
    if rc == 0 and got.splitlines() != want:
        for g, w in zip(got.splitlines(), want):
            if g != w:
                print("   got :", g, "\n   want:", w)

_, base = git("merge-base", "main", "release/1.x")
_, base_msg = git("log", "-1", "--format=%s", base)
check(base_msg == "Fix rounding", "release/1.x still branches off main at 'Fix rounding'")
_, first_parents = git("rev-list", "--count", "--first-parent", "main")
_, all_main = git("rev-list", "--count", "main")
check(first_parents == all_main == "8", "main is still linear with 8 commits")

_, ttype = git("cat-file", "-t", "v1.0")
check(ttype == "tag", "v1.0 is an annotated tag")
_, tmsg = git("tag", "-l", "--format=%(contents)", "v1.0")
check(tmsg.strip() == "Version 1.0", "tag message kept")
_, tcommit = git("rev-parse", "v1.0^{commit}")
_, want_commit = git("rev-parse", "main~4")
check(tcommit == want_commit, "v1.0 points at the rewritten 'Fix rounding' commit on main")

_, refs = git("for-each-ref", "--format=%(refname)")
bad = []
for ref in refs.splitlines():
    _, ids = git("log", "--format=%ae %ce", ref)
    if OLD in ids:
        bad.append(ref)
check(not bad, f"no ref leads to the old address (offending: {bad})")
_, head = git("symbolic-ref", "HEAD")
check(head == "refs/heads/main", "main checked out")
_, st = git("status", "--porcelain")
check(st == "", "working tree clean")
sys.exit(1 if FAILS else 0)
