"""Families of file and archive work: tar in and out, gzip, modes, symlinks and finding files."""

import hashlib
import textwrap

from generate import Family, Instance


def _dd(text: str) -> str:
    return textwrap.dedent(text).strip("\n") + "\n"


def _write_files(base: str, files: dict[str, str]) -> str:
    """Bash: a python3 heredoc writing {relative path: text} under base (directories made)."""
    return _dd(f"""
    python3 - <<'PY'
    import os
    base = {base!r}
    files = {files!r}
    for rel, text in files.items():
        path = os.path.join(base, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    PY
    """)


_TAR_MEMBERS = _dd('''
import tarfile


def norm(name):
    while name.startswith("./"):
        name = name[2:]
    return name.rstrip("/")


def members(path, how):
    """({normalised name: bytes} of the regular files, [all normalised names]) or (None, None)."""
    try:
        with tarfile.open(path, how) as tar:
            infos = tar.getmembers()
            files = {norm(m.name): tar.extractfile(m).read() for m in infos if m.isfile()}
            return files, [norm(m.name) for m in infos]
    except (OSError, tarfile.TarError, EOFError) as exc:
        print("cannot read the archive:", exc)
        return None, None
''')


# ---------------------------------------------------------------------------------------------
# tar-extract-new-dir

_EXTRACT = [
    ("webapp-release", "/app/dist/webapp-2.3.0.tar.gz", "webapp-2.3.0", "/app/releases/2.3.0", {
        "README.md": "# webapp 2.3.0\n\nRun `bin/start` to launch the service.\n",
        "bin/start": "#!/bin/sh\nexec python3 -m webapp --port 8080\n",
        "config/app.ini": "[server]\nport = 8080\nworkers = 4\n\n[db]\npath = /var/lib/webapp/app.db\n",
    }, "config/app.ini",
     "Unpack `{archive}` into `{dest}`, a directory that does not exist yet. When you are done, "
     "`{example}` must exist."),
    ("etc-backup-xz", "/srv/backups/etc-2024-06-01.tar.xz", "etc", "/srv/restore/etc-snapshot", {
        "hosts": "127.0.0.1 localhost\n10.0.0.5 db.internal\n10.0.0.6 cache.internal\n",
        "nginx/nginx.conf": "worker_processes auto;\nevents { worker_connections 1024; }\n",
        "nginx/sites-available/shop.conf": "server {\n    listen 80;\n    server_name shop.example.com;\n}\n",
        "cron.d/cleanup": "15 3 * * * root /usr/local/bin/cleanup --days 30\n",
    }, "nginx/sites-available/shop.conf",
     "We need to inspect last week's configuration backup. Extract the xz-compressed tarball `{archive}` "
     "under the new directory `{dest}` (it has to be created), so that for instance `{example}` is "
     "readable afterwards."),
    ("sales-dataset", "/data/incoming/sales-q3.tar.gz", None, "/data/sales/q3", {
        "regions.csv": "region_id,name\n1,North\n2,South\n3,East\n4,West\n",
        "2024/07.csv": "day,region_id,amount\n2024-07-01,1,1200.50\n2024-07-01,2,980.00\n",
        "2024/08.csv": "day,region_id,amount\n2024-08-01,3,1410.25\n2024-08-02,4,730.10\n",
        "2024/09.csv": "day,region_id,amount\n2024-09-01,1,1650.00\n2024-09-03,2,1122.40\n",
    }, "2024/08.csv",
     "The archive `{archive}` holds the Q3 sales files at its top level. Put its contents in "
     "`{dest}` (this directory isn't there yet) so that, e.g., `{example}` exists."),
    ("metrics-plugin", "/opt/downloads/metrics-plugin-0.9.tgz", "metrics-plugin", "/opt/plugins/enabled", {
        "plugin.json": '{\n  "name": "metrics-plugin",\n  "version": "0.9.0",\n  "entry": "main.py"\n}\n',
        "main.py": "def register(app):\n    app.add_route('/metrics', lambda: 'ok')\n",
        "templates/panel.html": "<div class=\"panel\">{{ value }}</div>\n",
    }, "plugin.json",
     "Install the plugin by extracting `{archive}` (a gzip-compressed tar) into `{dest}`; neither that "
     "directory nor its parent exists yet. The plugin manifest should end up at `{example}`."),
    ("docs-site-xz", "/home/dev/docs-site.tar.xz", "site", "/home/dev/preview", {
        "index.html": "<!doctype html>\n<title>Docs</title>\n<h1>Project docs</h1>\n",
        "guide/install.html": "<h2>Install</h2>\n<p>pip install tool</p>\n",
        "assets/style.css": "body { font-family: sans-serif; margin: 2em; }\n",
    }, "guide/install.html",
     "Create the directory `{dest}` and extract `{archive}` in it. Check: `{example}` should be "
     "there afterwards."),
    ("test-fixtures", "/app/tests/fixtures.tar.gz", "fixtures", "/app/tests/tmp/unpacked", {
        "users.json": '[{"id": 1, "name": "ada"}, {"id": 2, "name": "grace"}]\n',
        "orders/small.csv": "id,user_id,total\n1,1,9.99\n2,2,19.50\n",
        "orders/empty.csv": "id,user_id,total\n",
        "expected/report.txt": "users: 2\norders: 2\ntotal: 29.49\n",
    }, "orders/small.csv",
     "The test suite expects its fixtures unpacked in `{dest}`, which does not exist. Extract "
     "`{archive}` there; the file `{example}` is one of the ones the tests read."),
    ("dark-theme", "/var/www/uploads/theme-dark.tar.gz", None, "/var/www/themes/dark", {
        "style.css": "body { background: #111; color: #eee; }\na { color: #7af; }\n",
        "theme.ini": "[theme]\nname = dark\nauthor = design-team\n",
        "img/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>\n",
    }, "img/logo.svg",
     "A designer uploaded `{archive}`; its files sit at the root of the archive (no enclosing folder). "
     "Extract them into `{dest}`, creating that directory, so the logo lands at `{example}`."),
    ("may-logs-xz", "/root/archive/logs-may.tar.xz", "logs", "/root/review/may", {
        "api/2024-05-30.log": "2024-05-30T10:00:01 INFO request GET /health 200\n",
        "api/2024-05-31.log": "2024-05-31T11:12:13 ERROR request POST /orders 500\n",
        "worker/2024-05-31.log": "2024-05-31T02:00:00 INFO job nightly-sync done in 41s\n",
    }, "api/2024-05-31.log",
     "Please restore the May logs from `{archive}` into `{dest}` (a directory that still has to be "
     "made). After extraction `{example}` must be present."),
]


def _tar_extract_new_dir() -> Family:
    instances = []
    for key, archive, top, dest, files, sample, wording in _EXTRACT:
        xz = archive.endswith(".xz")
        flag = "J" if xz else "z"
        where = f"{dest}/{top}" if top else dest
        example = f"{where}/{sample}"
        member_root = top if top else "."
        build = f"/tmp/build-{key}/" + (top or "")
        setup = (f'mkdir -p "$(dirname {archive})"\n' + _write_files(build, files)
                 + f"tar -c{flag}f {archive} -C /tmp/build-{key} {member_root}\n"
                 + f"rm -rf /tmp/build-{key}\n")
        solve = f"mkdir -p {dest}\ntar -x{flag}f {archive} -C {dest}\n"
        checks = _dd(f"""
        import os
        where = {where!r}
        files = {files!r}
        for rel, text in files.items():
            got = read(os.path.join(where, rel))
            check(got == text, f"{{where}}/{{rel}} was extracted with its contents")
        """)
        instance = Instance(key=key, instruction=wording.format(archive=archive, dest=dest, example=example),
                            setup=setup, solve=solve, checks=checks, tags=("tar", "xz" if xz else "gzip"))
        instances.append(instance)
    return Family(name="tar-extract-new-dir", category="archives",
                  recipe="mkdir -p DEST && tar -xf ARCHIVE -C DEST",
                  slip="tar -C into a directory that does not exist yet fails (no mkdir -p); "
                       "extracting into the current directory instead",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# tar-create-relative

_CREATE = [
    ("srv-reports", "/srv/data/reports", "/tmp/reports.tar.gz", {
        "q1/summary.csv": "metric,value\nrevenue,120400\ncosts,80210\n",
        "q2/summary.csv": "metric,value\nrevenue,131900\ncosts,84400\n",
        "README.txt": "Quarterly reports, one folder per quarter.\n",
    }, "q1/summary.csv",
     "Create a gzip-compressed tar archive `{out}` of the directory `{src}`. Every path inside the "
     "archive must begin with `{name}/` (for example `{name}/{sample}`), with nothing in front of it: the "
     "member paths are relative to `{parent}`, so `{parent_rel}/{name}/...` must not appear in the archive."),
    ("nginx-config", "/app/config/nginx", "/app/nginx-config.tar.gz", {
        "nginx.conf": "user www-data;\nworker_processes 2;\ninclude /etc/nginx/conf.d/*.conf;\n",
        "conf.d/api.conf": "upstream api { server 127.0.0.1:9000; }\n",
        "conf.d/static.conf": "server { listen 8081; root /srv/static; }\n",
    }, "conf.d/api.conf",
     "Pack `{src}` into `{out}` (tar + gzip) so that unpacking it in any directory creates a single "
     "`{name}/` folder there, not `{parent_rel}/{name}/`; e.g. the archive should contain "
     "`{name}/{sample}`. Check the member names the archive lists before you finish."),
    ("alice-notes", "/home/alice/notes", "/home/alice/backup/notes.tar.gz", {
        "todo.md": "- renew certificate\n- review PR 42\n",
        "meetings/2024-06-03.md": "# Standup\nAll green.\n",
        "meetings/2024-06-10.md": "# Planning\nSprint 14 scope agreed.\n",
    }, "meetings/2024-06-03.md",
     "Back up Alice's notes: make `{out}`, a .tar.gz of `{src}` whose member names are relative to "
     "`{parent}` and so start with `{name}/` (such as `{name}/{sample}`)."),
    ("www-html", "/var/www/html", "/root/html-site.tar.gz", {
        "index.html": "<!doctype html>\n<h1>Welcome</h1>\n",
        "about/index.html": "<h1>About us</h1>\n",
        "css/main.css": "h1 { color: #333; }\n",
    }, "about/index.html",
     "I want to ship the website to another host. Archive the directory `{src}` as `{out}` (gzip "
     "compressed). The archive has to store the files as `{name}/...`, like `{name}/{sample}`, not "
     "under any longer path such as `{parent_rel}/{name}/...`."),
    ("db-migrations", "/opt/service/db/migrations", "/opt/service/migrations.tgz", {
        "001_create_users.sql": "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL);\n",
        "002_add_orders.sql": "CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER);\n",
        "seed/dev_users.sql": "INSERT INTO users (email) VALUES ('dev@example.com');\n",
    }, "002_add_orders.sql",
     "Produce the gzipped tarball `{out}` containing the directory `{src}` (just that directory, as it "
     "is). Inside it the entries must be named `{name}/<file>`, for instance `{name}/{sample}`: paths "
     "relative to the directory `{parent}`."),
    ("export-month", "/data/exports/2024-06", "/data/exports-2024-06.tar.gz", {
        "customers.csv": "id,name,country\n1,Acme,DE\n2,Globex,US\n",
        "invoices.csv": "id,customer_id,amount\n10,1,250.00\n11,2,99.90\n",
        "meta/export.json": '{"month": "2024-06", "rows": 4}\n',
    }, "meta/export.json",
     "Make a .tar.gz called `{out}` from `{src}`. Someone will extract it elsewhere and expects to get "
     "a directory `{name}` holding the files, so archive members look like `{name}/{sample}` (taken "
     "relative to `{parent}`, without the leading `{parent_rel}/`)."),
    ("build-dist", "/app/build/dist", "/app/build/dist.tar.gz", {
        "app.js": "console.log('app v3');\n",
        "app.css": "body{margin:0}\n",
        "vendor/lib.js": "export const lib = 1;\n",
        "index.html": "<script src=\"app.js\"></script>\n",
    }, "vendor/lib.js",
     "Compress the build output directory `{src}` (absolute path; it already exists) into the gzip tar "
     "archive `{out}`; paths recorded in the archive start at `{name}/` (e.g. `{name}/{sample}`)."),
    ("cli-src", "/home/dev/projects/cli-tool/src", "/home/dev/src.tar.gz", {
        "main.py": "import sys\n\nprint('cli-tool', sys.argv[1:])\n",
        "commands/__init__.py": "",
        "commands/sync.py": "def run(args):\n    return 0\n",
    }, "commands/sync.py",
     "Tar and gzip the source directory `{src}` into `{out}`. The member names in the archive should "
     "be `{name}/...` only, as in `{name}/{sample}`, i.e. relative to `{parent}`."),
]


def _tar_create_relative() -> Family:
    instances = []
    for key, src, out, files, sample, wording in _CREATE:
        parent, name = src.rsplit("/", 1)
        setup = _write_files(src, files) + f'mkdir -p "$(dirname {out})"\n'
        solve = f"tar -czf {out} -C {parent} {name}\n"
        want = {f"{name}/{rel}": text for rel, text in files.items()}
        checks = _TAR_MEMBERS + _dd(f"""
        name = {name!r}
        want = {want!r}
        files, names = members({out!r}, "r:gz")
        print("members:", names)
        check(files is not None, "{out} is a gzip-compressed tar archive")
        files = files or {{}}
        for member, text in want.items():
            check(files.get(member) == text.encode(), f"it holds {{member}} with its contents")
        check(set(files) == set(want), f"it holds exactly the directory's files (got {{sorted(files)}})")
        check(all(n in ("", name) or n.startswith(name + "/") for n in names or []),
              f"every member path starts with {{name}}/")
        """)
        instruction = wording.format(src=src, out=out, name=name, sample=sample, parent=parent,
                                     parent_rel=parent.lstrip("/"))
        instances.append(Instance(key=key, instruction=instruction,
                                  setup=setup, solve=solve, checks=checks, tags=("tar", "gzip")))
    return Family(name="tar-create-relative", category="archives",
                  recipe="tar -czf OUT -C PARENT DIRNAME",
                  slip="`tar -czf OUT /abs/path/DIR` stores the members as abs/path/DIR/... instead of DIR/...",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# chmod-recursive
# (key, root, {dir rel: mode} ("" is the root), {file rel: mode}, target mode, scope, wording)
# scope "files": only regular files get the mode, directories keep theirs; "all": the root directory,
# every directory and every file under it get the mode.

_CHMOD = [
    ("www-files-644", "/var/www/site", {"": 0o755, "css": 0o711, "img": 0o750, "img/icons": 0o711},
     {"index.html": 0o600, "css/main.css": 0o640, "img/logo.png": 0o666, "img/icons/home.svg": 0o600},
     0o644, "files",
     "Give every regular file under `{root}`, including the ones in nested subdirectories, mode `{m}`. "
     "Directories must keep the permissions they have now."),
    ("scripts-755", "/opt/tools", {"": 0o700, "bin": 0o750, "lib": 0o700, "lib/helpers": 0o750},
     {"bin/deploy": 0o644, "bin/backup": 0o600, "lib/common.sh": 0o640, "lib/helpers/log.sh": 0o644},
     0o755, "files",
     "All files below `{root}` (at any depth) should end up with permissions `{m}`. Leave the mode of "
     "every directory, `{root}` itself included, exactly as it is."),
    ("secrets-600", "/etc/myapp/secrets", {"": 0o755, "db": 0o751, "tls": 0o755, "tls/old": 0o751},
     {"api.key": 0o644, "db/password": 0o664, "tls/server.key": 0o644, "tls/old/server.key": 0o666},
     0o600, "files",
     "The secret files in `{root}` are readable by everyone. Set the mode of each regular file in that "
     "tree, subdirectories included, to `{m}`; don't change the directories' modes."),
    ("reports-640", "/srv/reports", {"": 0o775, "2023": 0o751, "2024": 0o775, "2024/q2": 0o751},
     {"index.csv": 0o666, "2023/annual.csv": 0o600, "2024/q1.csv": 0o644, "2024/q2/april.csv": 0o664,
      "2024/q2/may.csv": 0o600},
     0o640, "files",
     "Change the permissions of all files in `{root}` and its subdirectories, however deep, to `{m}`. "
     "Only files: the directories' own modes stay unchanged."),
    ("readonly-444", "/data/archive/2019", {"": 0o755, "jan": 0o711, "feb": 0o755, "feb/raw": 0o711},
     {"manifest.txt": 0o644, "jan/events.log": 0o664, "feb/events.log": 0o600, "feb/raw/dump.bin": 0o644},
     0o444, "files",
     "Make every file in the `{root}` tree read-only for everyone, i.e. exactly mode `{m}`, down to the "
     "deepest subdirectory. Directory permissions are not to be touched."),
    ("shared-664", "/home/team/shared", {"": 0o775, "docs": 0o770, "docs/specs": 0o775, "media": 0o770},
     {"README.md": 0o644, "docs/plan.md": 0o600, "docs/specs/api.md": 0o640, "media/banner.png": 0o644},
     0o664, "files",
     "The team needs group write access on the files in `{root}`: set mode `{m}` on each regular file "
     "anywhere in it (nested folders too), and keep the directories' current permissions."),
    ("hooks-all-750", "/opt/deploy/hooks", {"": 0o755, "pre": 0o755, "post": 0o755, "post/notify": 0o755},
     {"run-all": 0o644, "pre/01-check": 0o644, "post/02-restart": 0o600, "post/notify/slack": 0o666},
     0o750, "all",
     "Set the mode of `{root}` itself and of everything inside it (every subdirectory and every file, "
     "at all depths) to `{m}`."),
    ("vault-all-700", "/home/ops/vault", {"": 0o755, "keys": 0o755, "keys/old": 0o775, "notes": 0o755},
     {"index.txt": 0o644, "keys/prod.pem": 0o644, "keys/old/prod-2022.pem": 0o664, "notes/rotation.md": 0o600},
     0o700, "all",
     "Lock down `{root}`: the directory, all directories beneath it and all files in them, no matter how "
     "deeply nested, must have permissions `{m}`."),
]


def _modes(table: dict[str, int]) -> str:
    """A {path: mode} dict as Python source with octal modes."""
    return "{" + ", ".join(f"{path!r}: 0o{mode:o}" for path, mode in table.items()) + "}"


def _chmod_recursive() -> Family:
    instances = []
    for key, root, dirs, files, target, scope, wording in _CHMOD:
        m = format(target, "o")
        contents = {rel: f"{rel}: sample content\n" for rel in files}
        setup = _write_files(root, contents)
        setup += "".join(f"chmod {format(fm, 'o')} {root}/{rel}\n" for rel, fm in files.items())
        # the deepest directories first, so the root's own mode is set last
        for rel in sorted(dirs, key=lambda r: -r.count("/") - (1 if r else 0)):
            path = f"{root}/{rel}" if rel else root
            setup += f"mkdir -p {path}\nchmod {format(dirs[rel], 'o')} {path}\n"
        if scope == "files":
            solve = f"find {root} -type f -exec chmod {m} {{}} +\n"
            want_dirs = dirs
        else:
            solve = f"chmod -R {m} {root}\n"
            want_dirs = {rel: target for rel in dirs}
        want_dirs = {(f"{root}/{rel}" if rel else root): md for rel, md in want_dirs.items()}
        want_files = {f"{root}/{rel}": target for rel in files}
        checks = _dd(f"""
        want_files = {_modes(want_files)}
        want_dirs = {_modes(want_dirs)}
        found_files, found_dirs = set(), set()
        for base, dirs, names in os.walk({root!r}):
            found_dirs.add(base)
            found_files.update(os.path.join(base, n) for n in names)
        check(found_files == set(want_files), f"the files are all still there (got {{sorted(found_files)}})")
        for path, want in sorted(want_files.items()):
            got = mode(path) if os.path.isfile(path) else None
            check(got == want, f"file {{path}} has mode {{oct(want)}} (got {{got if got is None else oct(got)}})")
        for path, want in sorted(want_dirs.items()):
            got = mode(path) if os.path.isdir(path) else None
            check(got == want, f"directory {{path}} has mode {{oct(want)}} (got {{got if got is None else oct(got)}})")
        """)
        instances.append(Instance(key=key, instruction=wording.format(root=root, m=m), setup=setup,
                                  solve=solve, checks=checks, tags=("chmod", "find")))
    return Family(name="chmod-recursive", category="files-permissions",
                  recipe="find ROOT -type f -exec chmod MODE {} +   (chmod -R MODE ROOT when directories too)",
                  slip="chmod without -R (nested files unchanged), or chmod -R on directories when only "
                       "files are asked",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# symlink-replace
# (key, link, current link text, new link text, directories to create {path: [file names]}, wording)

_SYMLINK = [
    ("app-current", "/srv/app/current", "/srv/app/releases/1.4.0", "/srv/app/releases/1.5.0",
     "The symbolic link `{link}` points to `{old}`. Release 1.5.0 is ready in `{new}`: switch the link so "
     "it points there, with `{new}` as the link's exact target."),
    ("site-live-relative", "/opt/site/live", "releases/2024-05-30", "releases/2024-06-14",
     "`{link}` is a symlink with the relative target `{old}`. Repoint it to the newer release: its "
     "target must afterwards read exactly `{new}` (relative, like before)."),
    ("python-default", "/opt/python/default", "/opt/python/3.10", "/opt/python/3.12",
     "Change the existing link `{link}` so that it refers to `{new}` instead of `{old}`. The link's "
     "target should be the absolute path `{new}`."),
    ("proxy-profile", "/etc/myproxy/active", "/etc/myproxy/profiles/staging", "/etc/myproxy/profiles/production",
     "Our proxy reads its configuration through the symlink `{link}`, currently aimed at `{old}`. Make "
     "it point to `{new}` (use that absolute path as the target)."),
    ("snapshot-latest", "/data/snapshots/latest", "2024-06-01", "2024-06-08",
     "In `/data/snapshots`, the link `latest` still targets `{old}`. Update `{link}` so its target is "
     "`{new}` (exactly that string, relative to the link's directory)."),
    ("editor-config", "/home/dev/.config/editor", "/home/dev/dotfiles/editor-v1", "/home/dev/dotfiles/editor-v2",
     "Replace the symbolic link `{link}`, which points to `{old}`, with one pointing to `{new}`; the "
     "link must keep its name and its target must be `{new}`."),
    ("java-home", "/usr/local/java", "/usr/local/lib/jdk-17", "/usr/local/lib/jdk-21",
     "Upgrade the Java the system uses: `{link}` must become a symbolic link to `{new}` (absolute target) "
     "instead of `{old}`."),
    ("app-stable-relative", "/app/stable", "builds/build-118", "builds/build-131",
     "Build 131 passed QA. Retarget the symlink `{link}` (now `{old}`) to `{new}`; write the target "
     "relative, exactly `{new}`, as the current one is."),
]

_DIR_FILES = {
    0: {"VERSION": "{v}\n", "bin/run": "#!/bin/sh\necho running {v}\n"},
    1: {"config.yml": "version: {v}\nlisten: 0.0.0.0:8080\n"},
}


def _symlink_replace() -> Family:
    instances = []
    for n, (key, link, old, new, wording) in enumerate(_SYMLINK):
        link_dir = link.rsplit("/", 1)[0]
        old_abs = old if old.startswith("/") else f"{link_dir}/{old}"
        new_abs = new if new.startswith("/") else f"{link_dir}/{new}"
        layout = _DIR_FILES[n % 2]
        old_files = {rel: text.format(v=old.rsplit("/", 1)[-1]) for rel, text in layout.items()}
        new_files = {rel: text.format(v=new.rsplit("/", 1)[-1]) for rel, text in layout.items()}
        setup = (_write_files(old_abs, old_files) + _write_files(new_abs, new_files)
                 + f"mkdir -p {link_dir}\nln -s {old} {link}\n")
        solve = f"ln -sfn {new} {link}\n"
        checks = _dd(f"""
        link = {link!r}
        check(os.path.islink(link), f"{{link}} is a symbolic link")
        got = os.readlink(link) if os.path.islink(link) else None
        check(got == {new!r}, f"its target is {new} (got {{got!r}})")
        for where, files in (({old_abs!r}, {old_files!r}), ({new_abs!r}, {new_files!r})):
            found = set()
            for base, dirs, names in os.walk(where):
                found.update(os.path.relpath(os.path.join(base, x), where) for x in names)
                found.update(os.path.relpath(os.path.join(base, x), where) for x in dirs
                             if os.path.islink(os.path.join(base, x)))
            check(found == set(files), f"nothing was added to or removed from {{where}} (got {{sorted(found)}})")
            check(all(read(os.path.join(where, rel)) == text for rel, text in files.items()),
                  f"the files of {{where}} are unchanged")
        """)
        instances.append(Instance(key=key, instruction=wording.format(link=link, old=old, new=new),
                                  setup=setup, solve=solve, checks=checks, tags=("ln", "symlink")))
    return Family(name="symlink-replace", category="files-permissions",
                  recipe="ln -sfn NEW_TARGET LINK",
                  slip="`ln -s(f) NEW LINK` on a link to a directory creates a link inside the old target "
                       "(-n missing); the arguments of ln swapped",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# gzip-keep
# (key, file, python code setting `text`, wording)

_GZIP = [
    ("nginx-access-log", "/var/log/nginx/access.log.1", """
text = "".join(
    f'10.0.{i % 7}.{i % 200} - - [01/Jun/2024:10:{i // 60 % 60:02d}:{i % 60:02d} +0000] '
    f'"GET /api/items/{i} HTTP/1.1" {200 if i % 13 else 404} {512 + i * 3} "-" "curl/8.4"\\n'
    for i in range(1500))
""", "Compress `{file}` with gzip into `{file}.gz`. The uncompressed `{file}` has to stay where it is, "
     "unchanged: keep (do not delete) the input file."),
    ("orders-csv", "/data/exports/orders-2024-05.csv", """
text = "order_id,customer,amount,currency\\n" + "".join(
    f"{10000 + i},cust-{i % 97:03d},{(i * 37) % 500 + 0.99:.2f},EUR\\n" for i in range(2000))
""", "Compress the local file `{file}` with gzip (it is already on disk; nothing is to be downloaded) to "
     "get `{file}.gz`, but the original CSV must not be deleted: both files should exist when you are "
     "done."),
    ("shop-sql-dump", "/srv/backups/shop-2024-06-01.sql", """
text = "BEGIN TRANSACTION;\\nCREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL);\\n" + "".join(
    f"INSERT INTO products VALUES({i},'product {i}',{i * 1.25:.2f});\\n" for i in range(1, 1201)) + "COMMIT;\\n"
""", "Make a gzip-compressed copy of the database dump `{file}` next to it, named `{file}.gz` (real gzip "
     "data, not a renamed plain copy), while keeping `{file}` itself in place."),
    ("catalog-json", "/app/data/catalog.json", """
import json
text = json.dumps({"items": [{"sku": f"SKU-{i:05d}", "stock": i % 40, "tags": ["a", "b"][: i % 3]}
                             for i in range(800)]}, indent=2) + "\\n"
""", "Gzip `{file}` so that `{file}.gz` exists, and keep the original `{file}` too (other services "
     "still read it, so it must still be there, unchanged, when you finish)."),
    ("meeting-notes", "/home/dev/notes/meeting-notes.md", """
text = "# Meeting notes\\n\\n" + "".join(
    f"## Week {w}\\n\\n- status: {'green' if w % 3 else 'amber'}\\n- owner: dev{w % 5}\\n\\n" for w in range(1, 300))
""", "Before emailing it, produce a gzip-compressed `{file}.gz` from `{file}`. Do not remove or "
     "modify `{file}`."),
    ("cpu-metrics-tsv", "/opt/metrics/cpu.tsv", """
text = "ts\\thost\\tcpu_pct\\n" + "".join(
    f"{1717200000 + i * 60}\\tnode-{i % 4}\\t{(i * 7919) % 1000 / 10:.1f}\\n" for i in range(3000))
""", "Compress `{file}` with gzip. Afterwards both `{file}` (the original, untouched) and its "
     "gzip-compressed copy `{file}.gz` should exist in `/opt/metrics`; list the directory to confirm "
     "both are there."),
    ("auth-log", "/root/audit/auth.log", """
text = "".join(
    f"Jun  {1 + i // 500} 0{i % 10}:{i % 60:02d}:00 host sshd[{1000 + i}]: "
    f"{'Accepted publickey' if i % 4 else 'Failed password'} for user{i % 9} from 192.0.2.{i % 250}\\n"
    for i in range(2500))
""", "For the audit, compress `{file}` to `{file}.gz` using gzip, keeping the original log file in "
     "place as well: gzip must leave the input file where it is."),
    ("js-bundle", "/app/build/bundle.js", """
text = "(function(){\\n" + "".join(
    f"  function f{i}(x) {{ return x * {i} + {i % 17}; }}\\n" for i in range(1000)) + "})();\\n"
""", "Create a precompressed `{file}.gz` for the web server from `{file}` (gzip format). The web "
     "server also serves the uncompressed `{file}`, so it must still exist afterwards."),
]


def _gzip_keep() -> Family:
    instances = []
    for key, file, code, wording in _GZIP:
        ns: dict = {}
        exec(code, ns)
        digest = hashlib.sha256(ns["text"].encode()).hexdigest()
        setup = (f'mkdir -p "$(dirname {file})"\npython3 - <<\'PY\'\n{code.strip()}\n'
                 f'with open({file!r}, "w") as f:\n    f.write(text)\nPY\n')
        solve = f"gzip -k {file}\n"
        checks = _dd(f"""
        import gzip
        import hashlib
        file = {file!r}
        want = {digest!r}
        try:
            with gzip.open(file + ".gz", "rb") as f:
                unpacked = hashlib.sha256(f.read()).hexdigest()
        except (OSError, EOFError) as exc:
            unpacked = None
            print("cannot read the gzip file:", exc)
        check(os.path.isfile(file + ".gz") and unpacked == want, f"{{file}}.gz decompresses to the original")
        original = None
        if os.path.isfile(file) and not os.path.islink(file):
            with open(file, "rb") as f:
                original = hashlib.sha256(f.read()).hexdigest()
        check(original == want, f"{{file}} is still there, unchanged")
        """)
        instances.append(Instance(key=key, instruction=wording.format(file=file), setup=setup, solve=solve,
                                  checks=checks, tags=("gzip",)))
    return Family(name="gzip-keep", category="archives", recipe="gzip -k FILE",
                  slip="plain `gzip FILE` replaces the original by FILE.gz",
                  instances=instances)


# ---------------------------------------------------------------------------------------------
# find-by-extension
# (key, root, extension, files under root, output, wording)

_FIND = [
    ("app-logs", "/srv/app", ".log", [
        "server.log", "server.log.1", "catalog", "worker/worker.log", "worker/worker.log.2",
        "worker/.session.log", "archive/2024/05/server.log", "archive/2024/05/notes.txt", "blog/post.md",
    ], "/tmp/log_files.txt",
     "List every file under `{root}` whose name ends in `{ext}`, searching all subdirectories too. "
     "Write their absolute paths into the file `{out}` (create it), one per line, sorted; printing them "
     "on the terminal is not enough."),
    ("warehouse-csv", "/data/warehouse", ".csv", [
        "customers.csv", "customers.csv.bak", "raw/2024/orders.csv", "raw/2024/orders.tsv",
        "raw/2024/06/returns.csv", "staging/products.csv", "staging/products.xlsx", "README",
    ], "/data/csv_inventory.txt",
     "Which `{ext}` files exist anywhere in the `{root}` tree? Save the answer in the text file `{out}`: "
     "the full absolute path of each one, one path per line (newline-separated), in sorted order."),
    ("project-py", "/home/dev/project", ".py", [
        "setup.py", "app/__init__.py", "app/models.py", "app/__pycache__/models.cpython-311.pyc",
        "app/api/routes.py", "app/api/routes.pyi", "app/py.typed", "tests/test_models.py", "tests/data.json",
    ], "/home/dev/python_files.txt",
     "Write the sorted list of absolute paths of all Python source files (names ending in `{ext}`) "
     "inside `{root}` and its nested directories to the file `{out}`, one per line; the list must be "
     "sorted in the file itself."),
    ("docs-md", "/app/docs", ".md", [
        "index.md", "changelog.markdown", "guide/intro.md", "guide/setup.mdx", "guide/advanced/tuning.md",
        "api/README", "api/v1/endpoints.md", "api/v1/schema.json",
    ], "/app/markdown_files.txt",
     "Collect the absolute path of every `{ext}` file found in `{root}` at any depth into the file "
     "`{out}`: one path per line, lines sorted."),
    ("service-conf", "/etc/myservice", ".conf", [
        "main.conf", "main.conf.bak", "conf.d/10-logging.conf", "conf.d/20-cache.conf",
        "conf.d/disabled/30-debug.conf", "conf.d/README.txt", "tls/server.config",
    ], "/root/conf_list.txt",
     "For a config audit, create `{out}`: it must list all files below `{root}` (recursively) ending in "
     "`{ext}`, each as an absolute path on its own line, sorted. The file is what gets checked."),
    ("fixtures-json", "/opt/fixtures", ".json", [
        "users.json", "events.jsonl", "api/v1/orders.json", "api/v1/orders.json5", "api/v2/orders.json",
        "api/v2/.cache.json", "schemas/order.schema.json", "schemas/notes.txt",
    ], "/opt/json_fixtures.txt",
     "Find all `{ext}` files in the `{root}` directory hierarchy, including hidden ones and those in "
     "subfolders, and save their absolute paths, sorted and one per line (newline-separated, not "
     "NUL-separated), in the file `{out}`."),
    ("migrations-sql", "/srv/db", ".sql", [
        "schema.sql", "schema.sql.gz", "migrations/0001_init.sql", "migrations/0002_users.sql",
        "migrations/legacy/0000_import.sql", "migrations/legacy/notes.md", "seeds/dev.sql", "seeds/dev.sqlite",
    ], "/tmp/sql_files.txt",
     "Produce the file `{out}` containing, one per line and sorted, the absolute paths of the files named "
     "`*{ext}` anywhere under `{root}` (look into every subdirectory)."),
    ("uploads-jpg", "/var/www/uploads", ".jpg", [
        "avatar.jpg", "avatar.jpeg", "banner.png", "2024/06/cat.jpg", "2024/06/cat.jpg.txt",
        "2024/07/dog.jpg", "2024/07/thumbs/dog.jpg", "2024/07/thumbs/index.html",
    ], "/root/jpg_paths.txt",
     "I need an inventory of the JPEG uploads: save the absolute paths of all files ending in `{ext}` "
     "under `{root}`, subdirectories included, to the file `{out}` (sorted, one path per line). Read the "
     "file back before you finish."),
]


def _find_by_extension() -> Family:
    instances = []
    for key, root, ext, files, out, wording in _FIND:
        contents = {rel: f"sample {rel}\n" for rel in files}
        setup = _write_files(root, contents) + f'mkdir -p "$(dirname {out})"\n'
        solve = f"find {root} -type f -name '*{ext}' | sort > {out}\n"
        want = sorted(f"{root}/{rel}" for rel in files if rel.rsplit("/", 1)[-1].endswith(ext))
        checks = _dd(f"""
        want = {want!r}
        got = lines({out!r})
        check(got is not None, "{out} exists")
        got = [os.path.normpath(x.strip()) for x in got or [] if x.strip()]
        print("listed:", got)
        check(set(got) == set(want), f"it lists exactly the {ext} files by absolute path (want {{want}})")
        check(got == want, "one per line, sorted, each once")
        """)
        instances.append(Instance(key=key, instruction=wording.format(root=root, ext=ext, out=out),
                                  setup=setup, solve=solve, checks=checks, tags=("find",)))
    return Family(name="find-by-extension", category="files-permissions",
                  recipe="find ROOT -type f -name '*.EXT' | sort > OUT",
                  slip="non-recursive `ls ROOT/*.EXT` misses nested files; `find .` from inside ROOT "
                       "writes relative paths",
                  instances=instances)


FAMILIES = [_tar_extract_new_dir(), _tar_create_relative(), _chmod_recursive(), _symlink_replace(),
            _gzip_keep(), _find_by_extension()]
