"""Families of git work (subjects, annotated tags, partial commits), argument-taking scripts, cron lines,
systemd unit files and Python package skeletons."""

import shlex
import textwrap

from generate import Family, Instance


def _q(text: str) -> str:
    return shlex.quote(text)


def _dd(text: str) -> str:
    return textwrap.dedent(text).strip("\n") + "\n"


# ---------------------------------------------------------------------------------------------------
# git repositories built in setup: a project is a list of steps
#   ("w", path, content)          write a file (parents made)
#   ("c", subject[, body])        git add -A, then commit with a fixed date
#   ("b", name)                   create and switch to a branch
#   ("co", name)                  switch to an existing branch

_SHOP = [
    ("w", "README.md", "# Shop\n\nA small web shop.\n"),
    ("c", "Initial commit"),
    ("w", "src/cart.py", "def total(items):\n    return sum(items)\n"),
    ("c", "Add cart total"),
    ("w", "src/auth.py", "def login(user):\n    return user is not None\n"),
    ("c", "Add login check"),
    ("w", "src/cart.py", "def total(items):\n    return round(sum(items), 2)\n"),
    ("c", "Fix rounding in invoice totals", "Totals were off by a cent for some carts."),
]

_BILLING = [
    ("w", "README.md", "# Billing\n\nInvoices and payments.\n"),
    ("w", "billing/__init__.py", ""),
    ("w", "billing/invoice.py", "def invoice_total(lines):\n    return sum(line['amount'] for line in lines)\n"),
    ("c", "Initial import of billing service"),
    ("w", "billing/vat.py", "RATE = 0.20\n\n\ndef with_vat(amount):\n    return amount * (1 + RATE)\n"),
    ("c", "Add VAT calculation"),
    ("w", "billing/invoice.py", "def invoice_total(lines):\n    if not lines:\n        return 0\n"
                                "    return sum(line['amount'] for line in lines)\n"),
    ("c", "Handle zero-amount invoices"),
    ("w", "VERSION", "2.4.0\n"),
    ("c", "Bump version to 2.4.0"),
]

_WEBAPP = [
    ("w", "index.html", "<h1>Welcome</h1>\n"),
    ("w", "app.py", "print('serving on :8000')\n"),
    ("c", "Initial commit"),
    ("w", "landing.html", "<p>Our product, explained.</p>\n"),
    ("c", "Add landing page"),
    ("b", "feature/search"),
    ("w", "search.py", "def search(q):\n    return []\n"),
    ("c", "Add search endpoint"),
    ("w", "index.html", "<h1>Welcome</h1>\n<form action=\"/search\"><input name=\"q\"></form>\n"),
    ("c", "Add search box to header", "The box posts to /search."),
    ("co", "main"),
    ("w", "footer.html", "<footer>(c) 2024 Example Ltd</footer>\n"),
    ("c", "Add footer"),
]

_DOCS = [
    ("w", "README.md", "# Handbook\n\nHow we work.\n"),
    ("c", "Start the handbook"),
    ("w", "onboarding.md", "# Onboarding\n\n1. Get a laptop\n2. Read the handbook\n"),
    ("c", "docs: add onboarding checklist"),
    ("w", "backup.md", "# Backups\n\nNightly dumps are kept for 30 days.\n"),
    ("c", "docs: describe the backup policy", "Reviewed by ops.\n\nRefs: OPS-112"),
]

_AGENT = [
    ("w", "agent/__init__.py", "__version__ = \"1.1.0\"\n"),
    ("w", "agent/config.py", "INTERVAL = 60\n"),
    ("c", "Initial agent skeleton"),
    ("w", "agent/collector.py", "def collect():\n    return {\"cpu\": 0.0}\n"),
    ("c", "Collect CPU metrics"),
    ("b", "release-1.2"),
    ("w", "agent/__init__.py", "__version__ = \"1.2.0\"\n"),
    ("c", "Prepare 1.2 release"),
    ("w", "agent/tls.py", "VERIFY = True\n"),
    ("c", "Backport TLS fix from main"),
    ("co", "main"),
    ("w", "agent/collector.py", "def collect():\n    return {\"cpu\": 0.0, \"mem\": 0.0}\n"),
    ("c", "Collect memory metrics"),
    ("w", "config.toml", "interval = 60\n"),
    ("c", "Switch config to TOML"),
]

_INFRA = [
    ("w", "main.tf", "module \"workers\" {\n  source = \"./workers\"\n}\n"),
    ("w", "variables.tf", "variable \"instance_type\" {\n  default = \"t3.small\"\n}\n"),
    ("c", "Add base terraform layout"),
    ("w", "staging.tfvars", "instance_type = \"t3.small\"\nworkers = 4\n"),
    ("c", "Add staging environment"),
    ("w", "staging.tfvars", "instance_type = \"t3.small\"\nworkers = 8\n"),
    ("c", "Increase worker count to 8 (was 4)"),
]

_DOTFILES = [
    ("w", ".bashrc", "export EDITOR=vim\n"),
    ("c", "Add bashrc"),
    ("w", ".vimrc", "set number\n"),
    ("c", "Add vimrc"),
    ("w", ".vimrc", "set number\ninoremap jj <Esc>\n"),
    ("c", "vim: map jj to escape", "Saves reaching for the escape key."),
]

_API = [
    ("w", "api/__init__.py", ""),
    ("w", "api/app.py", "ROUTES = []\n"),
    ("c", "Create API skeleton"),
    ("w", "api/auth.py", "TOKENS = set()\n\n\ndef check(token):\n    return token in TOKENS\n"),
    ("c", "Add token auth"),
    ("b", "hotfix"),
    ("w", "api/auth.py", "TOKENS = set()\n\n\ndef check(token):\n    return bool(token) and token in TOKENS\n"),
    ("c", "Reject empty API tokens"),
    ("co", "main"),
    ("w", "api/limits.py", "PER_MINUTE = 60\n"),
    ("c", "Add rate limiting"),
    ("w", "README.md", "# API\n\nAt most 60 requests a minute per token.\n"),
    ("c", "Document the rate limits"),
]


def _git_setup(repo: str, who: tuple[str, str], month: int, steps: list[tuple]) -> str:
    """Bash that sets the global identity and builds the repository with fixed identities and dates."""
    name, email = who
    out = [
        f"git config --global user.name {_q(name)}",
        f"git config --global user.email {_q(email)}",
        "git config --global init.defaultBranch main",
        "n=0",
        "commit() {",
        "  n=$((n + 1))",
        f"  local d; d=$(printf '2024-{month:02d}-%02dT09:30:00+0000' \"$n\")",
        f"  GIT_AUTHOR_DATE=\"$d\" GIT_COMMITTER_DATE=\"$d\" git -c user.name={_q(name)} "
        f"-c user.email={_q(email)} commit -q \"$@\"",
        "}",
        f"mkdir -p {_q(repo)}",
        f"git init -q {_q(repo)}",
        f"cd {_q(repo)}",
    ]
    for step in steps:
        kind = step[0]
        if kind == "w":
            path, content = step[1], step[2]
            if "/" in path:
                out.append(f"mkdir -p {_q(path.rsplit('/', 1)[0])}")
            out.append(f"printf '%s' {_q(content)} > {_q(path)}")
        elif kind == "c":
            msg = f"-m {_q(step[1])}" + (f" -m {_q(step[2])}" if len(step) > 2 else "")
            out.append(f"git add -A && commit {msg}")
        elif kind == "b":
            out.append(f"git checkout -q -b {_q(step[1])}")
        elif kind == "co":
            out.append(f"git checkout -q {_q(step[1])}")
        else:
            raise ValueError(step)
    return "\n".join(out) + "\n"


def _head_subject(steps: list[tuple]) -> str:
    """The subject of the checked-out branch's last commit once the steps have run."""
    branch, tips = "main", {}
    for step in steps:
        if step[0] == "c":
            tips[branch] = step[1]
        elif step[0] == "b":
            tips[step[1]] = tips[branch]
            branch = step[1]
        elif step[0] == "co":
            branch = step[1]
    return tips[branch]


_GIT_PRELUDE = """\
os.environ.update(GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")  # the agent's config must not matter
"""

# ---------------------------------------------------------------------------------------------------
# 1. git-last-commit-subject

# (key, project, repo, identity, month, branch or None, output file, wording)
_SUBJECT = [
    ("shop", _SHOP, "/app/repo", ("Dana Dev", "dana@example.com"), 3, None, "/app/last_subject.txt",
     "Write the subject line (the first line of the message) of the most recent commit in the git "
     "repository `{repo}` to `{out}`. The file should contain only that line."),
    ("billing", _BILLING, "/srv/git/billing", ("Ravi Patel", "ravi@billing.example"), 4, None,
     "/srv/git/billing_subject.txt",
     "What is the subject of the latest commit in `{repo}`? Put exactly that subject line, and nothing "
     "else, in `{out}`."),
    ("feature-branch", _WEBAPP, "/app/webapp", ("Mia Chen", "mia@web.example"), 5, "feature/search",
     "/app/feature_subject.txt",
     "The git repository `{repo}` has a branch `{branch}`. Write the subject line of the newest commit on "
     "that branch to `{out}` (only the subject line, nothing else)."),
    ("docs", _DOCS, "/home/dev/docs", ("Tom Berg", "tom@docs.example"), 6, None, "/home/dev/latest.txt",
     "In `{repo}`, take the latest commit and store its subject (the first line of its commit message) in "
     "`{out}`; the file must hold that single line only."),
    ("release-branch", _AGENT, "/opt/src/agent", ("Ola Nordmann", "ola@agent.example"), 7, "release-1.2",
     "/opt/src/release_tip.txt",
     "Find the commit at the tip of the `{branch}` branch of the repository `{repo}` and write its subject "
     "line, alone, to `{out}`."),
    ("infra", _INFRA, "/app/infra", ("Sam Ops", "sam@infra.example"), 8, None, "/app/report/subject.txt",
     "`{out}` should end up containing the one-line subject of the last commit made in the repository at "
     "`{repo}`, and nothing more."),
    ("dotfiles", _DOTFILES, "/root/dotfiles", ("Kim Lee", "kim@home.example"), 9, None, "/root/subject.txt",
     "Record the title of the HEAD commit of the git repository `{repo}` in `{out}`: just the first line "
     "of its commit message."),
    ("hotfix-branch", _API, "/data/repos/api", ("Lea Roth", "lea@api.example"), 10, "hotfix",
     "/data/repos/hotfix_subject.txt",
     "Look at the branch `{branch}` of the repository `{repo}` (it is not the checked-out branch). Write "
     "the subject line of its most recent commit, and nothing else, to `{out}`."),
]


def _branch_tip(steps: list[tuple], branch: str) -> str:
    current, tips = "main", {}
    for step in steps:
        if step[0] == "c":
            tips[current] = step[1]
        elif step[0] == "b":
            tips[step[1]] = tips[current]
            current = step[1]
        elif step[0] == "co":
            current = step[1]
    return tips[branch]


def _last_commit_subject() -> Family:
    instances = []
    for key, steps, repo, who, month, branch, out, wording in _SUBJECT:
        subject = _branch_tip(steps, branch) if branch else _head_subject(steps)
        setup = _git_setup(repo, who, month, steps) + f"mkdir -p {_q(out.rsplit('/', 1)[0])}\n"
        rev = f" {branch}" if branch else ""
        solve = f"git -C {repo} log -1 --format=%s{rev} > {out}\n"
        checks = f"""
        got = read({out!r})
        check(got is not None, "{out} exists")
        check(got is not None and got.strip() == {subject!r},
              f"it holds just the subject line {subject!r} (got {{got!r}})")
        """
        instances.append(Instance(key=key, instruction=wording.format(repo=repo, out=out, branch=branch),
                                  setup=setup, solve=solve, checks=checks, tags=("git", "log")))
    return Family(name="git-last-commit-subject", category="git",
                  recipe="git -C REPO log -1 --format=%s [BRANCH] > OUT",
                  slip="`git log -1 --oneline` adds the abbreviated hash; %B or plain `git log` add more lines",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# 2. git-annotated-tag

# (key, project, repo, identity, month, tag, message, target (rev for the solution), target subject, wording)
_TAG = [
    ("shop-head", _SHOP, "/app/repo", ("Dana Dev", "dana@example.com"), 3, "v1.0", "Release 1.0", "HEAD",
     "Create an annotated tag `{tag}` with the message `{msg}` on the latest commit of the git repository "
     "`{repo}`."),
    ("billing-head", _BILLING, "/srv/git/payments", ("Ravi Patel", "ravi@billing.example"), 4, "v2.4.0",
     "Billing 2.4.0: VAT and zero-amount invoices", "HEAD",
     "Tag the current HEAD of `{repo}` as `{tag}`. It must be an annotated tag whose message is exactly "
     "`{msg}`."),
    ("site-older", _WEBAPP, "/app/site", ("Mia Chen", "mia@web.example"), 5, "release-2024-05", "May release",
     "main~1",
     "In the repository `{repo}`, the commit with the subject `Add landing page` is what went live in May. "
     "Put an annotated tag named `{tag}` on that commit (not on the latest one), with the tag message "
     "`{msg}`."),
    ("cli-branch", _AGENT, "/opt/src/cli", ("Ola Nordmann", "ola@agent.example"), 7, "v1.2.0-rc1",
     "Release candidate 1 for 1.2.0", "release-1.2",
     "Mark the tip of branch `release-1.2` in `{repo}` with an annotated tag `{tag}` carrying the message "
     "`{msg}`. Leave the checked-out branch as it is."),
    ("handbook-head", _DOCS, "/home/dev/handbook", ("Tom Berg", "tom@docs.example"), 6, "handbook-v1",
     "First published handbook", "HEAD",
     "The handbook in `{repo}` is ready to publish. Add an annotated git tag `{tag}` to its newest commit; "
     "the tag's message must be `{msg}`."),
    ("infra-parent", _INFRA, "/data/repos/infra", ("Sam Ops", "sam@infra.example"), 8, "staging-ok",
     "Staging verified", "HEAD~1",
     "In `{repo}`, create the annotated tag `{tag}` (message: `{msg}`) pointing at the second-newest commit, "
     "the parent of the current HEAD commit."),
    ("dotfiles-head", _DOTFILES, "/root/dotfiles", ("Kim Lee", "kim@home.example"), 9, "snapshot-2024-06",
     "Dotfiles snapshot, June 2024", "HEAD",
     "Snapshot the current state of `{repo}` with an annotated tag called `{tag}` on HEAD. Use `{msg}` as "
     "the tag message."),
    ("api-head", _API, "/app/api", ("Lea Roth", "lea@api.example"), 10, "v0.1.0", "First public API version",
     "HEAD",
     "We are releasing the API kept in the git repository `{repo}`: tag its latest commit with the "
     "annotated tag `{tag}`, message `{msg}`."),
]


def _tag_target_subject(steps: list[tuple], rev: str) -> str:
    current, history = "main", {}
    for step in steps:
        if step[0] == "c":
            history.setdefault(current, []).append(step[1])
        elif step[0] == "b":
            history[step[1]] = list(history[current])
            current = step[1]
        elif step[0] == "co":
            current = step[1]
    base, _, back = rev.partition("~")
    branch = current if base == "HEAD" else base
    return history[branch][-1 - int(back or 0)]


def _annotated_tag() -> Family:
    instances = []
    for key, steps, repo, who, month, tag, msg, rev, wording in _TAG:
        subject = _tag_target_subject(steps, rev)
        setup = _git_setup(repo, who, month, steps)
        target = "" if rev == "HEAD" else f" {rev}"
        solve = f"git -C {repo} tag -a {_q(tag)} -m {_q(msg)}{target}\n"
        checks = _GIT_PRELUDE + _dd(f"""
        g = "git -c safe.directory='*' -C {repo} "
        ref = "refs/tags/{tag}"
        check(sh(g + "cat-file -t " + ref) == "tag", "{tag} is an annotated tag (a tag object)")
        check(sh(g + "log -1 --format=%s '" + ref + "^{{commit}}'") == {subject!r},
              "it points at the commit {subject!r}")
        check(sh(g + "for-each-ref --format='%(contents)' " + ref).strip() == {msg!r},
              "its message is {msg!r}")
        """)
        instances.append(Instance(key=key, instruction=wording.format(repo=repo, tag=tag, msg=msg),
                                  setup=setup, solve=solve, checks=checks, tags=("git", "tag")))
    return Family(name="git-annotated-tag", category="git",
                  recipe="git -C REPO tag -a NAME -m MESSAGE [COMMIT]",
                  slip="`git tag NAME` makes a lightweight tag, which is no tag object and has no message",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# 3. git-commit-one-file

# (key, project, repo, identity, month, target (path, new content), other tracked edits [(path, new)],
#  untracked [(path, content)], message, wording)
_ONE = [
    ("shop-readme", _SHOP, "/app/repo", ("Dana Dev", "dana@example.com"), 3,
     ("README.md", "# Shop\n\nA small web shop.\n\nRun it with `make run`.\n"),
     [("src/cart.py", "def total(items):\n    return round(sum(items), 2)  # TODO: currency\n")],
     [("scratch.txt", "temporary notes\n")],
     "Update README",
     "In the git repository `{repo}`, commit only the changes to `{target}`, with the message `{msg}`. "
     "The other changes in the working tree (the edit to `src/cart.py` and the untracked `scratch.txt`) "
     "must stay uncommitted and untouched."),
    ("billing-vat", _BILLING, "/srv/git/billing", ("Ravi Patel", "ravi@billing.example"), 4,
     ("billing/vat.py", "RATE = 0.21\n\n\ndef with_vat(amount):\n    return amount * (1 + RATE)\n"),
     [("billing/invoice.py", "def invoice_total(lines):\n    # WIP: discounts\n    if not lines:\n"
                             "        return 0\n    return sum(line['amount'] for line in lines)\n")],
     [("notes.tmp", "ask finance about reduced rates\n")],
     "Use the 21 percent VAT rate",
     "Make a commit in `{repo}` that contains the change to `{target}` and nothing else. Commit message: "
     "`{msg}`. Everything else that is modified or untracked in the repository stays out of the commit "
     "and stays as it is."),
    ("webapp-changelog", _WEBAPP, "/app/webapp", ("Mia Chen", "mia@web.example"), 5,
     ("docs/CHANGELOG.md", "# Changelog\n\n## 0.2\n\n- Footer added\n"),
     [("app.py", "print('serving on :8080')\n")],
     [("debug.log", "GET / 200\nGET /missing 404\n")],
     "Add changelog",
     "`{repo}` contains a new file `{target}`. Add it to the repository in a single new commit with the "
     "message `{msg}` on the current branch. That commit must include only this file: the modified "
     "`app.py` and the untracked `debug.log` are not to be committed."),
    ("docs-onboarding", _DOCS, "/home/dev/docs", ("Tom Berg", "tom@docs.example"), 6,
     ("onboarding.md", "# Onboarding\n\n1. Get a laptop and enable disk encryption\n2. Read the handbook\n"),
     [("backup.md", "# Backups\n\nNightly dumps are kept for 30 days (90 for finance).\n")],
     [("draft-ideas.md", "- a page on code review\n")],
     "Clarify laptop setup step",
     "Commit `{target}` in the git repository `{repo}` with the commit message `{msg}`. Only that file may "
     "go into the commit; leave the other pending changes (`backup.md` and `draft-ideas.md`) uncommitted."),
    ("agent-collector", _AGENT, "/opt/src/agent", ("Ola Nordmann", "ola@agent.example"), 7,
     ("agent/collector.py", "def collect():\n    return {\"cpu\": 0.0, \"mem\": 0.0, \"disk\": 0.0}\n"),
     [("agent/config.py", "INTERVAL = 15  # testing only\n")],
     [(".env.local", "API_KEY=dev-only\n")],
     "Collect disk metrics",
     "On the checked-out branch of `{repo}`, create one commit with the message `{msg}` that records the "
     "edit to `{target}` only. The repository has other uncommitted edits and untracked files; none of "
     "them may end up in the commit, and they must remain in the working tree."),
    ("infra-variables", _INFRA, "/app/infra", ("Sam Ops", "sam@infra.example"), 8,
     ("variables.tf", "variable \"instance_type\" {\n  default = \"t3.large\"\n}\n"),
     [("main.tf", "module \"workers\" {\n  source = \"./workers\"\n  count  = 2\n}\n")],
     [("plan.out", "Plan: 2 to add, 0 to change, 0 to destroy.\n")],
     "Allow larger instance types",
     "Only `{target}` in `{repo}` is ready to be committed. Commit that one file with the message `{msg}`, "
     "leaving `main.tf` modified but uncommitted and `plan.out` untracked."),
    ("dotfiles-bashrc", _DOTFILES, "/root/dotfiles", ("Kim Lee", "kim@home.example"), 9,
     (".bashrc", "export EDITOR=vim\nalias ll='ls -l'\n"),
     [(".vimrc", "set number\ninoremap jj <Esc>\nset relativenumber\n")],
     [(".bash_history", "ls\ncd /tmp\n")],
     "Add ll alias",
     "I edited several files in my dotfiles repository `{repo}`, but I want to commit just `{target}` for "
     "now, with the message `{msg}`. Do not commit anything else, and keep my other changes as they are."),
    ("api-tests", _API, "/data/repos/api", ("Lea Roth", "lea@api.example"), 10,
     ("tests/test_tokens.py", "from api.auth import check\n\n\ndef test_empty_token():\n"
                              "    assert not check('')\n"),
     [("api/auth.py", "TOKENS = {'demo'}\n\n\ndef check(token):\n    return token in TOKENS\n")],
     [("coverage.xml", "<coverage line-rate=\"0.5\"/>\n")],
     "Add token tests",
     "In `{repo}`, commit the new test file `{target}` (and only it) with the message `{msg}`. Other work "
     "in progress there, such as the change to `api/auth.py` and the file `coverage.xml`, must not be "
     "part of the commit and must not be lost."),
]


def _committed_content(steps: list[tuple], path: str) -> str | None:
    current, files = "main", {"main": {}}
    pending: dict = {}
    for step in steps:
        if step[0] == "w":
            pending[step[1]] = step[2]
        elif step[0] == "c":
            files[current].update(pending)
            pending = {}
        elif step[0] == "b":
            files[step[1]] = dict(files[current])
            current = step[1]
        elif step[0] == "co":
            current = step[1]
    return files[current].get(path)


def _commit_one_file() -> Family:
    instances = []
    for key, steps, repo, who, month, (target, new), others, untracked, msg, wording in _ONE:
        previous = _head_subject(steps)
        edits = [("w", target, new)] + [("w", p, c) for p, c in others] + [("w", p, c) for p, c in untracked]
        setup = _git_setup(repo, who, month, steps + edits)
        solve = f"cd {repo}\ngit add -- {_q(target)}\ngit commit -q -m {_q(msg)}\n"
        kept = [(p, c, _committed_content(steps, p)) for p, c in others]
        checks = _GIT_PRELUDE + _dd(f"""
        g = "git -c safe.directory='*' -C {repo} "
        check(sh(g + "log -1 --format=%s") == {msg!r}, "the latest commit is {msg!r}")
        check(sh(g + "log -1 --format=%s HEAD~1") == {previous!r}, "it sits directly on {previous!r}")
        check(sh(g + "diff --name-only HEAD~1 HEAD") == {target!r}, "the commit changes only {target}")
        check(sh(g + "show HEAD:{target}") == {new.strip()!r}, "the commit holds the new {target}")
        for path, now, before in {kept!r}:
            check(sh(g + "show HEAD:" + path) == before.strip(), path + " is not committed")
            check(read({repo!r} + "/" + path) == now, path + " keeps its uncommitted change")
        for path, content in {untracked!r}:
            check(sh(g + "ls-tree -r --name-only HEAD -- " + path) == "", path + " is not committed")
            check(read({repo!r} + "/" + path) == content, path + " is still there")
        """)
        instances.append(Instance(key=key, instruction=wording.format(repo=repo, target=target, msg=msg),
                                  setup=setup, solve=solve, checks=checks, tags=("git", "commit")))
    return Family(name="git-commit-one-file", category="git",
                  recipe="cd REPO && git add -- FILE && git commit -m MESSAGE",
                  slip="`git add .`, `git add -A` or `git commit -a` also commit the other modified or untracked "
                       "files",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# 4. script-with-args

# (key, path, body line of the script, cases [(args, expected stdout)], wording)
_SCRIPT = [
    ("greet", "/app/bin/greet.sh", 'echo "Hello, $1!"',
     [(["Ada"], "Hello, Ada!"), (["Grace Hopper"], "Hello, Grace Hopper!"), (["O'Brien"], "Hello, O'Brien!")],
     "Write an executable bash script `{path}` that greets the person named in its first argument: "
     "`{path} Ada` must print `Hello, Ada!`, and `{path} \"Grace Hopper\"` must print `Hello, Grace Hopper!`."),
    ("welcome", "/srv/tools/welcome.sh", 'echo "Welcome back, $1! You have $2 new messages."',
     [(["ada", "3"], "Welcome back, ada! You have 3 new messages."),
      (["linus", "0"], "Welcome back, linus! You have 0 new messages."),
      (["Mary Ann", "12"], "Welcome back, Mary Ann! You have 12 new messages.")],
     "Create `{path}`, an executable script that takes two arguments, a user name and a number of "
     "messages, and prints the line `Welcome back, <user>! You have <number> new messages.` For example "
     "`{path} ada 3` prints `Welcome back, ada! You have 3 new messages.`"),
    ("tarname", "/opt/scripts/tarname.sh", 'echo "$1-$2.tar.gz"',
     [(["webapp", "1.4.2"], "webapp-1.4.2.tar.gz"), (["agent", "0.9"], "agent-0.9.tar.gz"),
      (["db-tools", "2024.06"], "db-tools-2024.06.tar.gz")],
     "We need a helper `{path}` that prints the name of a release archive from a project name (first "
     "argument) and a version (second argument), joined by a dash and followed by `.tar.gz`: "
     "`{path} webapp 1.4.2` prints `webapp-1.4.2.tar.gz`. Write it and make it executable."),
    ("setting", "/app/scripts/setting.sh", 'echo "$1=$2"',
     [(["port", "8080"], "port=8080"), (["motd", "hello world"], "motd=hello world"),
      (["debug", "false"], "debug=false")],
     "Write the executable shell script `{path}`: given a key and a value as its two arguments it prints "
     "one line `key=value`. `{path} port 8080` should output `port=8080`."),
    ("log-line", "/home/dev/bin/log.sh", 'echo "[$1] $2"',
     [(["WARN", "disk almost full"], "[WARN] disk almost full"), (["INFO", "started"], "[INFO] started"),
      (["ERROR", "cannot open /etc/app.conf"], "[ERROR] cannot open /etc/app.conf")],
     "`{path}` does not exist yet. Make it an executable script that prints a log line from a level "
     "(argument 1) and a message (argument 2) in the form `[LEVEL] message`; "
     "`{path} WARN \"disk almost full\"` prints `[WARN] disk almost full`."),
    ("deploy-notice", "/app/deploy-notice.sh", 'echo "Deploying to $1..."',
     [(["staging"], "Deploying to staging..."), (["production"], "Deploying to production..."),
      (["eu west"], "Deploying to eu west...")],
     "Write a script at `{path}` (it must be executable) that prints `Deploying to <environment>...` where "
     "the environment is the script's first argument, e.g. `{path} staging` prints `Deploying to staging...`."),
    ("argcount", "/usr/local/bin/argcount.sh", 'echo "count: $#"',
     [([], "count: 0"), (["a", "b", "c"], "count: 3"), (["one arg"], "count: 1"),
      (["1", "2", "3", "4", "5"], "count: 5")],
     "Write an executable script `{path}` that prints `count: ` followed by the number of arguments it was "
     "called with: `{path} a b c` prints `count: 3`, and with no arguments it prints `count: 0`."),
    ("swap", "/app/tools/swap.sh", 'echo "$2 $1"',
     [(["left", "right"], "right left"), (["x y", "z"], "z x y"), (["1", "2"], "2 1")],
     "Create an executable script `{path}` that takes two arguments and prints them in reverse order, "
     "separated by a single space. So `{path} left right` prints `right left`."),
]


def _script_with_args() -> Family:
    instances = []
    for key, path, body, cases, wording in _SCRIPT:
        folder = path.rsplit("/", 1)[0]
        setup = f"mkdir -p {folder}\n"
        solve = _dd(f"""
        cat > {path} <<'EOF'
        #!/bin/bash
        {body}
        EOF
        chmod +x {path}
        """)
        checks = _dd(f"""
        def runs(script, *args):
            \"\"\"Run a staged copy of the agent's script as nobody; (exit code, stdout).\"\"\"
            result = run_as_nobody([script, *args])
            print(f"$ {{os.path.basename(script)}} {{args!r}} -> exit {{result.returncode}}, "
                  f"out {{result.stdout!r}}, err {{result.stderr[-300:]!r}}")
            return result.returncode, result.stdout


        p = {path!r}
        check(read(p) is not None, p + " exists")
        if read(p) is not None:
            check(mode(p) & 0o111 != 0, "it is executable")
            script = staged(p) + "/" + os.path.basename(p)
            for args, want in {cases!r}:
                code, out = runs(script, *args)
                check(code == 0 and out.rstrip("\\n") == want, f"with arguments {{args!r}} it prints {{want!r}}")
        """)
        instances.append(Instance(key=key, instruction=wording.format(path=path), setup=setup, solve=solve,
                                  checks=checks, tags=("bash", "quoting")))
    return Family(name="script-with-args", category="scripting",
                  recipe="cat > SCRIPT <<'EOF' ... \"$1\" ... EOF; chmod +x SCRIPT",
                  slip="writing the script with an unquoted heredoc or echo \"...$1...\" expands $1 (or $#) "
                       "at write time",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# 5. cron-line

_CRON_PARSER = '''\
RANGES = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]
NAMES = {3: {m: i + 1 for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split())},
         4: {d: i for i, d in enumerate("sun mon tue wed thu fri sat".split())}}


def value(text, i):
    if text.isdigit():
        return int(text)
    return NAMES.get(i, {})[text]


def expand(field, i):
    """The set of values a cron field stands for, or None when it does not parse."""
    lo, hi = RANGES[i]
    out = set()
    try:
        for part in field.lower().split(","):
            step, stepped = 1, "/" in part
            if stepped:
                part, s = part.split("/", 1)
                step = int(s)
                if step <= 0:
                    return None
            if part == "*":
                a, b = lo, hi
            elif "-" in part:
                a, b = (value(x, i) for x in part.split("-", 1))
            else:
                a = value(part, i)
                b = hi if stepped else a
            if a < lo or b > hi or a > b:
                return None
            out.update(range(a, b + 1, step))
    except (ValueError, KeyError):
        return None
    if i == 4:
        out = {0 if d == 7 else d for d in out}
    return out


def schedule(fields):
    return [expand(f, i) for i, f in enumerate(fields)]


def same_schedule(got, want):
    g, w = schedule(got), schedule(want)
    if None in g or g != w:
        return False
    # cron ORs day-of-month and day-of-week when both are restricted: an unrestricted one must be a '*'
    full_dom, full_dow = set(range(1, 32)), set(range(0, 7))
    if w[2] != full_dom or w[4] != full_dow:
        for i, full in ((2, full_dom), (4, full_dow)):
            if w[i] == full and not got[i].startswith("*"):
                return False
    return True


'''

# (key, file, schedule words, cron fields, user or None, command, wording)
_CRON = [
    ("daily-backup", "/app/cron/backup", "every day at 02:30", "30 2 * * *", None, "/app/bin/backup.sh",
     "Write a crontab line into the file `{file}` that runs `{cmd}` {when}. The file must contain just that "
     "line: the five time fields of the standard cron format (minute, hour, day of month, month, day of "
     "week), then the command. Only write the file (you are root); nothing has to be installed or loaded "
     "into cron."),
    ("monday-report", "/srv/cron.d/weekly-report", "every Monday at 07:15", "15 7 * * 1", None,
     "python3 /srv/reports/make_report.py --weekly",
     "Schedule the weekly report: put a single cron entry in `{file}` (five time fields, then the command "
     "`{cmd}` exactly as written here) that runs it {when}, i.e. at a quarter past seven in the morning. "
     "Remember that cron's first field is the minute and the second the hour."),
    ("every-15-min", "/opt/monitor/cron/healthcheck", "every 15 minutes (at minutes 0, 15, 30 and 45 of every "
     "hour)", "*/15 * * * *", None, "/opt/monitor/check.sh",
     "`{cmd}` must run {when}. Write the crontab line for that, in the usual five-field format (minute hour "
     "day-of-month month day-of-week) followed by the command, as the only line of the file `{file}`. "
     "There is no crontab program here and none is needed: the deliverable is the file."),
    ("monthly-rotate", "/app/config/cron/rotate", "at 23:05 on the first day of every month", "5 23 1 * *",
     None, "/usr/sbin/logrotate /app/config/logrotate.conf",
     "Create `{file}` containing one crontab line, in standard five-field cron syntax, which runs "
     "`{cmd}` {when}. The third field is the day of the month and the fifth the day of the week."),
    ("weekday-evening", "/home/dev/cron/standup", "at 18:45 every weekday, Monday to Friday",
     "45 18 * * 1-5", None, "/home/dev/bin/remind.sh standup",
     "I want `{cmd}` to run {when}. Put the cron line for it (schedule in the standard five fields, which "
     "are minute, hour, day of month, month and day of week, then the command) in `{file}`, with nothing "
     "else in that file."),
    ("sunday-vacuum", "/srv/cron.d/db-vacuum", "every Sunday at 04:10", "10 4 * * 0", "postgres",
     "/usr/local/bin/vacuum-db.sh",
     "Write the file `{file}` (that exact path) in the system-crontab format: one line with the five "
     "schedule fields (minute first, then hour, day of month, month, day of week), then the user `{user}`, "
     "then the command. It should run `{cmd}` {when} as that user."),
    ("hourly-sync", "/app/cron/sync", "once an hour, at 20 minutes past every hour", "20 * * * *", None,
     "/app/bin/sync.sh --quiet",
     "The file `{file}` should hold a single crontab entry (the standard five time fields, minute first, "
     "then the command `{cmd}`) running it {when}."),
    ("mid-month-billing", "/opt/cron.d/billing", "at 09:25 on the 15th of every month", "25 9 15 * *",
     "billing", "/opt/billing/run-invoices.sh",
     "Add a system cron entry for the invoice run to the file `{file}` (not to a file elsewhere): `{cmd}` "
     "must run {when} as user `{user}`. Use the system-crontab line format (the five time fields minute, "
     "hour, day of month, month, day of week; then the user name; then the command) and write only that "
     "line to the file."),
]


def _cron_line() -> Family:
    instances = []
    for key, file, when, fields, user, cmd, wording in _CRON:
        script = cmd.split()[1] if cmd.startswith("python3 ") else cmd.split()[0]
        setup = _dd(f"""
        mkdir -p {file.rsplit('/', 1)[0]} {script.rsplit('/', 1)[0]}
        printf '#!/bin/sh\\necho "run $(date)"\\n' > {script}
        chmod 755 {script}
        """)
        line = f"{fields} {user + ' ' if user else ''}{cmd}"
        solve = f"printf '%s\\n' {_q(line)} > {file}\n"
        nfix = 6 if user else 5
        checks = _dd(_CRON_PARSER) + "\n\n" + _dd(f"""
        got = lines({file!r})
        check(got is not None, "{file} exists")
        rows = [ln for ln in (got or []) if ln.strip() and not ln.lstrip().startswith("#")]
        print("lines:", rows)
        check(len(rows) == 1, "it holds exactly one cron line")
        if len(rows) == 1:
            f = rows[0].split()
            check(len(f) > {nfix}, "the line has the schedule fields{', the user' if user else ''} and a command")
            if len(f) > {nfix}:
                check(same_schedule(f[:5], {fields.split()!r}), "the schedule is {when} ({fields})")
                check(" ".join(f[{nfix}:]) == {cmd!r}, "the command is {cmd!r}")
        """)
        if user:
            checks += f"        check(f[5] == {user!r}, \"it runs as user {user}\")\n"
        instances.append(Instance(key=key, instruction=wording.format(file=file, cmd=cmd, when=when, user=user),
                                  setup=setup, solve=solve, checks=checks, tags=("cron",)))
    return Family(name="cron-line", category="configs",
                  recipe="echo 'MIN HOUR DOM MON DOW [USER] COMMAND' > FILE",
                  slip="minute and hour swapped (`2 30 * * *` for 02:30); an hour field for 'every N minutes'",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# 6. service-unit-file

_UNIT_PARSER = '''\
import shlex


def unit(path):
    """{section: [(key, value), ...]} of a unit file, or None when it is missing."""
    text = read(path)
    if text is None:
        return None
    sections, current = {}, None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1].strip(), [])
            continue
        if "=" in line and current is not None:
            k, v = line.split("=", 1)
            current.append((k.strip(), v.strip()))
    return sections


def values(sections, section, key):
    return [v for k, v in sections.get(section, []) if k == key]


def last(sections, section, key):
    found = values(sections, section, key)
    return found[-1] if found else None


def environment(sections):
    out = set()
    for v in values(sections, "Service", "Environment"):
        try:
            out.update(shlex.split(v))
        except ValueError:
            pass
    return out


'''

# (key, path, description, exec start, user, working dir, (env var, value), restart, wording)
_UNIT = [
    ("webshop", "/app/deploy/webshop.service", "Web shop", "/usr/bin/python3 /opt/webshop/server.py",
     "www-data", "/opt/webshop", ("PORT", "8080"), "always",
     "Write a systemd service unit file `{path}` for the web shop. Description `{desc}`; it runs "
     "`{exe}` as user `{user}` with working directory `{wd}` and the environment variable `{env}`; "
     "systemd must always restart it (Restart=`{restart}`); and it must be wanted by `multi-user.target` "
     "when enabled."),
    ("queue-worker", "/srv/units/queue-worker.service", "Queue worker", "/srv/worker/bin/worker --queue default",
     "worker", "/srv/worker", ("QUEUE_URL", "redis://localhost:6379/0"), "on-failure",
     "Create the systemd unit `{path}` (a service). Settings: description `{desc}`, command `{exe}`, user "
     "`{user}`, working directory `{wd}`, environment variable `{env}`, restart policy `{restart}`. "
     "Enabling it should hook it into `multi-user.target` (WantedBy)."),
    ("metrics-agent", "/opt/metrics/metrics-agent.service", "Metrics agent", "/opt/metrics/agent.sh",
     "metrics", "/opt/metrics", ("LOG_LEVEL", "info"), "always",
     "The metrics agent needs a systemd service unit. Write it to `{path}`: it is described as `{desc}`, "
     "starts `{exe}` as the user `{user}` in `{wd}`, sets `{env}` in its environment, uses "
     "`Restart={restart}`, and is installed into `multi-user.target` (`WantedBy=multi-user.target`)."),
    ("notes-api", "/home/dev/units/notes-api.service", "Notes API", "/usr/bin/node /home/dev/notes-api/index.js",
     "dev", "/home/dev/notes-api", ("NODE_ENV", "production"), "on-failure",
     "Write `{path}`, a systemd .service unit with description `{desc}` that runs `{exe}`. Run it as "
     "`{user}` from the working directory `{wd}`, give it the environment variable `{env}`, restart it "
     "`{restart}`, and let `systemctl enable` attach it to `multi-user.target`."),
    ("backup-sync", "/app/systemd/backup-sync.service", "Backup sync",
     "/usr/local/bin/backup-sync --target /mnt/backup", "backup", "/var/lib/backup-sync", ("TZ", "UTC"),
     "always",
     "Produce a systemd unit file at `{path}` for the backup sync daemon: Description={desc}, "
     "ExecStart={exe}, User={user}, WorkingDirectory={wd}, Environment={env}, Restart={restart} and "
     "WantedBy=multi-user.target."),
    ("etl-scheduler", "/data/services/etl-scheduler.service", "ETL scheduler", "/usr/bin/python3 -m etl.scheduler",
     "etl", "/data/etl", ("PYTHONUNBUFFERED", "1"), "on-failure",
     "We run the ETL scheduler under systemd. Write its service unit to `{path}`. It has the description "
     "`{desc}`, executes `{exe}` as user `{user}` inside `{wd}`, with `{env}` in the environment. It "
     "should be restarted only when it fails (`{restart}`) and started at boot as part of "
     "`multi-user.target`."),
    ("mailer", "/root/units/mailer.service", "Outgoing mail relay", "/opt/mailer/mailer --config /etc/mailer.conf",
     "mail", "/opt/mailer", ("SMTP_HOST", "smtp.internal"), "always",
     "Put a systemd service definition in `{path}`. Description: `{desc}`. Command to start: `{exe}`. "
     "User: `{user}`. Working directory: `{wd}`. Environment: `{env}`. Restart: `{restart}`. Target that "
     "wants it when enabled: `multi-user.target`."),
    ("cache-warmer", "/app/ops/cache-warmer.service", "Cache warmer", "/app/ops/warm_cache.sh", "nobody",
     "/app/ops", ("CACHE_DIR", "/var/cache/warmer"), "on-failure",
     "Write the unit file `{path}` so that systemd could run `{exe}` as a service (description `{desc}`) "
     "under the user `{user}`, in the working directory `{wd}`, with the environment variable `{env}` "
     "set, restarting it `{restart}`. `systemctl enable` must link it into `multi-user.target`."),
]


def _service_unit_file() -> Family:
    instances = []
    for key, path, desc, exe, user, wd, (var, val), restart, wording in _UNIT:
        env = f"{var}={val}"
        exe_path = exe.split()[0] if not exe.startswith("/usr/bin/") else exe.split()[1]
        setup_lines = [f"mkdir -p {path.rsplit('/', 1)[0]} {wd}"]
        if exe_path.startswith("/") and not exe_path.startswith("/usr/local/bin"):
            program = {".py": "import time\\nwhile True:\\n    time.sleep(60)\\n",
                       ".js": "setInterval(() => {}, 60000);\\n"}.get(exe_path[-3:], "#!/bin/sh\\nexec sleep 3600\\n")
            setup_lines += [f"mkdir -p {exe_path.rsplit('/', 1)[0]}", f"printf '{program}' > {exe_path}",
                            f"chmod 755 {exe_path}"]
        setup = "\n".join(setup_lines) + "\n"
        solve = _dd(f"""
        cat > {path} <<'EOF'
        [Unit]
        Description={desc}
        After=network.target

        [Service]
        ExecStart={exe}
        User={user}
        WorkingDirectory={wd}
        Environment={env}
        Restart={restart}

        [Install]
        WantedBy=multi-user.target
        EOF
        """)
        checks = _dd(_UNIT_PARSER) + "\n\n" + _dd(f"""
        u = unit({path!r})
        check(u is not None, "{path} exists")
        u = u or {{}}
        print("sections:", u)
        check(last(u, "Unit", "Description") == {desc!r}, "[Unit] Description={desc}")
        check((last(u, "Service", "ExecStart") or "").split() == {exe.split()!r}, "[Service] ExecStart={exe}")
        check(last(u, "Service", "User") == {user!r}, "[Service] User={user}")
        check((last(u, "Service", "WorkingDirectory") or "").rstrip("/") == {wd!r}, "[Service] WorkingDirectory={wd}")
        check({env!r} in environment(u), "[Service] Environment sets {env}")
        check(last(u, "Service", "Restart") == {restart!r}, "[Service] Restart={restart}")
        check(any("multi-user.target" in v.split() for v in values(u, "Install", "WantedBy")),
              "[Install] WantedBy=multi-user.target")
        """)
        instruction = wording.format(path=path, desc=desc, exe=exe, user=user, wd=wd, env=env, restart=restart)
        instances.append(Instance(key=key, instruction=instruction, setup=setup, solve=solve, checks=checks,
                                  tags=("systemd",)))
    return Family(name="service-unit-file", category="services",
                  recipe="cat > UNIT <<'EOF' [Unit] Description= / [Service] ExecStart= User= WorkingDirectory= "
                         "Environment= Restart= / [Install] WantedBy=multi-user.target EOF",
                  slip="no [Install] section (WantedBy left out or put in [Service]), or Restart= put in [Unit]",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# 7. python-package-layout

# (key, project dir, distribution name, import name, version, src layout?, wording)
_PKG = [
    ("weather-tools", "/app/pkgs/weather-tools", "weather-tools", "weather_tools", "0.3.1", False,
     "Create a minimal Python package skeleton in `{proj}`: a `pyproject.toml` whose `[project]` table "
     "has name `{name}` and version `{version}`, and the import package `{mod}` in `{pkgdir}` with an "
     "`__init__.py` that sets `__version__ = \"{version}\"`."),
    ("invoice-gen", "/srv/projects/invoice-gen", "invoice-gen", "invoice_gen", "1.0.0", True,
     "Set up the project `{proj}` with the src layout: `{proj}/pyproject.toml` declares the project "
     "`{name}`, version `{version}`; the code lives in the package `{mod}` at `{pkgdir}`, whose "
     "`__init__.py` defines `__version__` as `\"{version}\"`."),
    ("logparse", "/home/dev/code/py-logparse", "py-logparse", "logparse", "2.1.0", False,
     "I am starting a library. In `{proj}` write a `pyproject.toml` with `name = \"{name}\"` and "
     "`version = \"{version}\"` under `[project]`, and create the package directory `{pkgdir}` (imported "
     "as `{mod}`) with an `__init__.py` containing `__version__ = \"{version}\"`."),
    ("data-cleaner", "/opt/build/data-cleaner", "data-cleaner", "data_cleaner", "0.0.1", True,
     "Make `{proj}` a Python project: `pyproject.toml` there names the distribution `{name}` at version "
     "`{version}`, and `{pkgdir}/__init__.py` makes `import {mod}` work (with `{proj}/src` on the path) and "
     "exposes `{mod}.__version__ == \"{version}\"`."),
    ("acme-utils", "/app/libs/acme-utils", "acme-utils", "acme_utils", "2024.6.0", False,
     "Lay out a Python package under `{proj}`. It needs `{proj}/pyproject.toml` (project name `{name}`, "
     "version `{version}`) and a package `{mod}` at `{pkgdir}` whose `__init__.py` holds the version string "
     "`{version}` in `__version__`."),
    ("csv-merge", "/data/pkg/csv-merge", "csv-merge", "csv_merge", "0.12.0", False,
     "Write the skeleton of the `{name}` package, version `{version}`, in `{proj}`: the metadata goes in "
     "`pyproject.toml` (`[project]` with `name` and `version`), the code in the package directory "
     "`{pkgdir}`, importable as `{mod}`, with `__version__ = \"{version}\"` in its `__init__.py`."),
    ("ping-stats", "/root/work/ping-stats", "ping-stats", "ping_stats", "1.4.2", True,
     "Create a src-layout Python project at `{proj}` for the distribution `{name}` version `{version}`: "
     "`pyproject.toml` in `{proj}` with those two values in `[project]`, and `{pkgdir}/__init__.py` setting "
     "`__version__ = \"{version}\"`, so that `{mod}` can be imported from `{proj}/src`."),
    ("tiny-kv", "/app/tools/tiny-kv", "tiny-kv", "tinykv", "0.5.0", False,
     "Package `{proj}` as a Python project: a `pyproject.toml` with `[project]` name `{name}` and version "
     "`{version}`, and the import package `{mod}` (directory `{pkgdir}`) containing an `__init__.py` that "
     "defines `__version__ = \"{version}\"`."),
]


def _python_package_layout() -> Family:
    instances = []
    for key, proj, name, mod, version, src, wording in _PKG:
        root = f"{proj}/src" if src else proj
        pkgdir = f"{root}/{mod}"
        parent = proj.rsplit("/", 1)[0]
        setup = f"mkdir -p {parent}\necho 'Python projects live here.' > {parent}/README.txt\n"
        solve = _dd(f"""
        mkdir -p {pkgdir}
        cat > {proj}/pyproject.toml <<'EOF'
        [project]
        name = "{name}"
        version = "{version}"
        EOF
        echo '__version__ = "{version}"' > {pkgdir}/__init__.py
        """)
        pyproject, init = f"{proj}/pyproject.toml", f"{pkgdir}/__init__.py"
        checks = _dd(f"""
        import tomllib

        text = read({pyproject!r})
        check(text is not None, "{proj}/pyproject.toml exists")
        try:
            meta = tomllib.loads(text or "").get("project", {{}})
        except tomllib.TOMLDecodeError as e:
            print("pyproject.toml does not parse:", e)
            meta = {{}}
        check(meta.get("name") == {name!r}, f"[project] name is {name!r} (got {{meta.get('name')!r}})")
        check(meta.get("version") == {version!r}, f"[project] version is {version!r} (got {{meta.get('version')!r}})")
        check(read({init!r}) is not None, "{pkgdir}/__init__.py exists")
        if os.path.isdir({proj!r}):
            where = tempfile.mkdtemp(prefix="verify-")
            os.chmod(where, 0o755)
            copy = os.path.join(where, "project")
            shutil.copytree({proj!r}, copy, symlinks=True)
            for top, dirs, files in os.walk(copy):
                os.chmod(top, 0o755)
                for fname in files:
                    if not os.path.islink(os.path.join(top, fname)):
                        os.chmod(os.path.join(top, fname), 0o644)
            path = os.path.join(copy, "src") if {src!r} else copy
            code = ("import sys; sys.path.insert(0, sys.argv[1]); import {mod}; "
                    "print({mod}.__version__); print({mod}.__file__)")
            r = run_as_nobody(["python3", "-I", "-B", "-c", code, path])
            print("import:", r.returncode, repr(r.stdout), r.stderr[-400:])
            out = r.stdout.splitlines()
            check(r.returncode == 0 and len(out) == 2 and out[0] == {version!r}
                  and out[1].startswith(path + "/{mod}/"),
                  "import {mod} from the project gives __version__ {version!r}")
        """)
        instruction = wording.format(proj=proj, name=name, mod=mod, version=version, pkgdir=pkgdir)
        instances.append(Instance(key=key, instruction=instruction, setup=setup, solve=solve, checks=checks,
                                  tags=("python", "packaging")))
    return Family(name="python-package-layout", category="packaging",
                  recipe="mkdir -p PROJ/[src/]MOD; pyproject.toml [project] name/version; "
                         "echo '__version__ = \"X\"' > MOD/__init__.py",
                  slip="the package directory named with the dash of the distribution name, no __init__.py, "
                       "or a version that differs between pyproject.toml and __version__",
                  instances=instances)


FAMILIES = [_last_commit_subject(), _annotated_tag(), _commit_one_file(), _script_with_args(), _cron_line(),
            _service_unit_file(), _python_package_layout()]
