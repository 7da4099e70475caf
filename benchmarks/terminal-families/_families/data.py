"""Families of structured-data work: JSON configs, CSV tables and SQLite databases (no jq, no csvkit).

Every expected answer is computed here, at generation time, from the same data the setup writes (CSV
sums and counts with the csv module, SQL results with an in-memory sqlite3 database), so a table and
its check cannot drift apart. `SLIPS` maps each task id to a bash answer that makes the family's slip;
generate.py ignores it, it is there to re-check that every slip fails.
"""

import csv
import io
import json
import os
import random
import sqlite3

from generate import Family, Instance

SLIPS: dict[str, str] = {}


# ---------------------------------------------------------------------------------------------------
# helpers: setup and check snippets are built from lines at column 0, so the dedent in generate.py
# leaves embedded file contents (indented JSON) untouched.

def _dirs(*paths: str) -> str:
    return "mkdir -p " + " ".join(sorted({os.path.dirname(p) for p in paths}))


def _heredoc(path: str, text: str) -> str:
    body = text.rstrip("\n")
    assert "\nEOF\n" not in f"\n{body}\n"
    return f"cat > {path} <<'EOF'\n{body}\nEOF"


def _csv_text(header: list[str], rows: list[list]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


def _exists_check(path: str) -> str:
    return f"got = read({path!r})\ncheck(got is not None, {path + ' exists'!r})"


def _json_load_check(path: str) -> str:
    return "\n".join([
        _exists_check(path),
        "try:",
        "    data = json.loads(got) if got is not None else None",
        "except ValueError as exc:",
        "    data = None",
        f"    check(False, {path + ' is valid JSON'!r} + f' ({{exc}})')",
        "print('data:', data)",
    ])


# A canonical form of JSON data that tells strings, numbers, booleans and null apart (Python's ==
# would take True for 1 and 1 for 1.0) but does not care about key order or 8080 versus 8080.0.
_CANON = """
def canon(x):
    if isinstance(x, bool):
        return ("bool", x)
    if isinstance(x, (int, float)):
        return ("num", float(x))
    if isinstance(x, str):
        return ("str", x)
    if x is None:
        return ("null",)
    if isinstance(x, list):
        return ("list", [canon(v) for v in x])
    if isinstance(x, dict):
        return ("obj", sorted((k, canon(v)) for k, v in x.items()))
    return ("other", repr(x))
""".strip("\n")


def _py_path(path: list[str]) -> str:
    return "".join(f"[{json.dumps(k)}]" for k in path)


def _sqlite_setup(db: str, schema: str, table: str, rows: list[tuple], extra: str = "") -> str:
    marks = ", ".join("?" * len(rows[0]))
    return "\n".join([
        f"mkdir -p {os.path.dirname(db)}",
        "python3 - <<'PY'",
        "import sqlite3",
        f"db = sqlite3.connect({db!r})",
        f"db.executescript({schema!r})",
        f"db.executemany({f'INSERT INTO {table} VALUES ({marks})'!r}, {rows!r})",
        *([extra] if extra else []),
        "db.commit()",
        "db.close()",
        "PY",
    ])


def _memory_db(schema: str, table: str, rows: list[tuple]) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.executescript(schema)
    conn.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
    return conn


# ---------------------------------------------------------------------------------------------------
# json-read-field: the value of a nested string field, as plain text

_READ = [
    ("db-host", "/app/config.json", "/app/db_host.txt", ["database", "host"],
     {"name": "shop-api", "version": "2.4.1",
      "database": {"host": "db-primary.internal", "port": 5432, "name": "shop", "pool": {"min": 2, "max": 10}},
      "debug": False},
     "Read the `host` field of the `database` object in `{file}` and write its value to `{out}` as plain "
     "text: just the hostname, without quotes."),
    ("upstream-url", "/srv/billing/settings.json", "/srv/billing/upstream.txt", ["service", "upstream", "url"],
     {"service": {"name": "billing", "upstream": {"url": "https://payments.example.com:8443/v2/charge",
                                                  "timeout_ms": 2500}},
      "retries": 3, "currency": "EUR"},
     "What is the upstream URL configured at `service.upstream.url` in `{file}`? Save the bare URL (the "
     "text of the value itself, not a quoted JSON string) in `{out}`."),
    ("image-tag", "/opt/deploy/manifest.json", "/opt/deploy/tag.txt", ["image", "tag"],
     {"name": "frontend", "image": {"name": "registry.local/web/frontend", "tag": "1.19.3-alpine"},
      "replicas": 3, "ports": [{"container": 80, "host": 8080}]},
     "`{file}` is a deployment manifest. Put the image tag (the `tag` key inside `image`) into `{out}`: "
     "only the tag text, nothing else."),
    ("author-name", "/home/dev/project/package.json", "/home/dev/author.txt", ["author", "name"],
     {"name": "report-builder", "version": "0.9.0",
      "author": {"name": "Priya Raman", "email": "priya.raman@example.org"},
      "license": "MIT", "scripts": {"build": "make all", "test": "make check"}},
     "Write the author's name from `{file}` (the `name` field of the `author` object, not the top-level "
     "`name`) to `{out}` as one plain line of text without quotation marks."),
    ("log-file", "/etc/myapp/config.json", "/root/logfile_path.txt", ["logging", "file"],
     {"server": {"listen": "0.0.0.0:9000", "workers": 4},
      "logging": {"level": "warning", "file": "/var/log/myapp/app.log", "rotate": True}},
     "I need to know where the app logs. Take the value of `logging.file` from `{file}` and write it, "
     "unquoted, into `{out}`."),
    ("aws-region", "/app/infra/terraform.json", "/app/infra/region.txt", ["provider", "aws", "region"],
     {"provider": {"aws": {"region": "eu-central-1", "profile": "staging"}},
      "backend": {"bucket": "tf-state-acme", "region": "us-east-1", "encrypt": True}},
     "In `{file}`, look up the region of the aws provider (`provider` -> `aws` -> `region`) and store it "
     "in `{out}` as the raw text of the value, with no JSON quoting."),
    ("welcome-text", "/app/i18n/messages.json", "/app/i18n/welcome.txt", ["messages", "welcome"],
     {"locale": "en-GB", "messages": {"welcome": "Welcome back, friend!", "logout": "You have been signed out.",
                                      "error": "Something went wrong."}},
     "Copy the text of the `welcome` message (under `messages`) in `{file}` into `{out}`. The output file "
     "must contain the message itself, without the surrounding double quotes."),
    ("job-timezone", "/var/lib/jobs/backup.json", "/var/lib/jobs/tz.txt", ["schedule", "timezone"],
     {"job": "nightly-backup", "schedule": {"cron": "30 2 * * *", "timezone": "Europe/Berlin"},
      "target": {"path": "/mnt/backup", "keep": 14}},
     "Which timezone does the backup job in `{file}` use? Its `schedule` object has a `timezone` key; "
     "write that value as plain text (the bare string) to `{out}`."),
]


def _json_read_field() -> Family:
    instances = []
    for key, file, out, path, data, wording in _READ:
        value = data
        for k in path:
            value = value[k]
        assert isinstance(value, str)
        setup = "\n".join([_dirs(file, out), _heredoc(file, json.dumps(data, indent=2))])
        solve = "\n".join([
            "python3 - <<'PY'",
            "import json",
            f"d = json.load(open({file!r}))",
            f"open({out!r}, 'w').write(d{_py_path(path)} + '\\n')",
            "PY",
        ])
        checks = "\n".join([
            _exists_check(out),
            f"check(got is not None and got.strip() == {value!r}, "
            f"'it holds only the value ' + {value!r} + f' (got {{got!r}})')",
        ])
        instances.append(Instance(key=key, instruction=wording.format(file=file, out=out), setup=setup,
                                  solve=solve, checks=checks, tags=("json", "python3")))
        SLIPS[f"json-read-field-{key}"] = (
            f"python3 -c 'import json; print(json.dumps(json.load(open(\"{file}\")){_py_path(path)}))' > {out}")
    return Family(name="json-read-field", category="json-csv",
                  recipe="python3 -c 'import json; print(json.load(open(F))[A][B])' > OUT",
                  slip="the value written as a JSON string with its quotes (json.dumps, grep|cut); jq is "
                       "not installed",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# json-pretty-indent: minified JSON rewritten with an indent of 2, keys in their original order

_PRETTY = [
    ("shop-config", "/app/compact.json", "/app/pretty.json",
     {"name": "shop", "version": 3, "features": ["cart", "search", "wishlist"],
      "db": {"host": "db.internal", "port": 5432, "ssl": True}},
     "Pretty-print `{src}` into `{dst}`: the same JSON data with the keys in their original order, one "
     "item per line, indented by 2 spaces per level. `{dst}` must begin exactly like this:\n\n"
     "```\n{head}\n```"),
    ("api-response", "/srv/api/response.min.json", "/srv/api/response.json",
     {"status": "ok", "page": 1, "results": [{"id": 17, "title": "Widget", "tags": ["blue", "small"]},
                                             {"id": 23, "title": "Gadget", "tags": ["red"]}],
      "next": "/items?page=2"},
     "`{src}` is a minified API response. Write a readable copy to `{dst}`, formatted the way standard JSON "
     "pretty-printing does it (each key and array element on its own line) with an indentation of exactly 2 "
     "spaces per nesting level. Do not reorder the keys. jq is not installed; python3 is."),
    ("package-manifest", "/home/dev/app/package.min.json", "/home/dev/app/package.json",
     {"version": "1.4.0", "name": "ledger-ui", "private": True,
      "scripts": {"start": "vite", "build": "vite build", "lint": "eslint src"},
      "dependencies": {"vue": "3.4.21", "pinia": "2.1.7"}},
     "Reformat the JSON in `{src}` so that people can read it and save the result as `{dst}`. Use 2-space "
     "indentation, one entry per line, and keep every key where it is (no sorting). Look at the first "
     "lines of your output to make sure each level is indented by two spaces."),
    ("k8s-pod", "/opt/k8s/pod.json", "/opt/k8s/pod.pretty.json",
     {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "web-0", "labels": {"app": "web", "tier": "front"}},
      "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25", "ports": [{"containerPort": 80}]}]}},
     "The pod definition in `{src}` is all on one line. Produce `{dst}` containing the same JSON, "
     "pretty-printed with an indent of 2 spaces (one key or list item per line), keys in their original "
     "order. There is no jq in this container; use python3's json module. The result starts with:\n\n"
     "```\n{head}\n```"),
    ("inventory", "/data/inventory.json", "/data/inventory_pretty.json",
     {"warehouse": "north", "updated": "2024-05-02", "items": [{"sku": "KB-200", "qty": 14, "bin": "A3"},
                                                                 {"sku": "MS-110", "qty": 0, "bin": "A4"},
                                                                 {"sku": "CB-USB", "qty": 250, "bin": "C1"}]},
     "Make an indented version of `{src}` at `{dst}`: standard pretty-printed JSON where every nesting level "
     "is indented by two spaces and each item sits on its own line. The order of the keys must not change. "
     "(Tools: python3, no jq.)"),
    ("users-export", "/var/exports/users.min.json", "/var/exports/users.json",
     [{"username": "akim", "uid": 1001, "groups": ["dev", "docker"], "active": True},
      {"username": "bfox", "uid": 1002, "groups": ["ops"], "active": False},
      {"username": "cruiz", "uid": 1003, "groups": ["dev", "ops", "audit"], "active": True}],
     "Write `{src}` out again as `{dst}`, pretty-printed: one element or key per line and 2 spaces of "
     "indentation for each level. Keys stay in the order they have now. jq is not available here, "
     "python3 is; the first lines of `{dst}` should read:\n\n```\n{head}\n```"),
    ("feature-flags", "/etc/flags/flags.json", "/etc/flags/flags.formatted.json",
     {"zeta_search": True, "alpha_checkout": False, "rollout": {"percent": 25, "regions": ["eu", "us"]},
      "owner": "platform-team"},
     "Format `{src}` for humans: write it to `{dst}` with each key and array element on a separate line and "
     "an indentation step of 2 spaces. Preserve the existing key order exactly."),
    ("map-points", "/app/maps/points.json", "/root/points_indented.json",
     {"type": "FeatureCollection", "features": [
         {"type": "Feature", "properties": {"name": "Harbor"}, "geometry": {"type": "Point",
                                                                           "coordinates": [10.75, 59.91]}},
         {"type": "Feature", "properties": {"name": "Station"}, "geometry": {"type": "Point",
                                                                            "coordinates": [10.76, 59.9]}}]},
     "Take the single-line GeoJSON document `{src}` and save a pretty-printed copy at `{dst}`: same data, "
     "keys in the original order, one item per line, each level indented by 2 spaces. Only python3 is "
     "installed for this (no jq)."),
]


def _json_pretty_indent() -> Family:
    instances = []
    for key, src, dst, data, wording in _PRETTY:
        minified = json.dumps(data, separators=(",", ":"))
        want = json.dumps(data, indent=2)
        assert json.dumps(data, indent=2, sort_keys=True) != want or key == "never"
        setup = "\n".join([_dirs(src, dst), _heredoc(src, minified)])
        checks = "\n".join([
            _exists_check(dst),
            f"want = {want!r}",
            "print(got)",
            "check(got is not None and [l.rstrip() for l in got.rstrip().split('\\n')] == want.split('\\n'),",
            "      'same data, original key order, 2-space indentation, one item per line')",
        ])
        head = "\n".join(want.split("\n")[:4])
        instances.append(Instance(key=key, instruction=wording.format(src=src, dst=dst, head=head), setup=setup,
                                  solve=f"python3 -m json.tool --indent 2 {src} > {dst}\n", checks=checks,
                                  tags=("json", "python3")))
        SLIPS[f"json-pretty-indent-{key}"] = f"python3 -m json.tool {src} > {dst}"
    return Family(name="json-pretty-indent", category="json-csv",
                  recipe="python3 -m json.tool --indent 2 IN > OUT",
                  slip="python3 -m json.tool indents by 4 by default; sort_keys reorders; jq is not installed",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# json-set-field: set a field in place to a number or a boolean (not a string)

_SET = [
    ("server-port", "/app/config.json", ["server", "port"], 8080,
     {"server": {"host": "0.0.0.0", "port": 3000, "tls": False}, "log_level": "info", "workers": 2},
     "In `{file}`, change `server.port` to 8080. It must be a JSON number, and everything else in the file "
     "must keep its value."),
    ("debug-off", "/srv/web/settings.json", ["debug"], False,
     {"debug": True, "debug_port": 9229, "log_level": "debug", "features": {"beta": True, "debug_toolbar": True}},
     "Turn debugging off: set the top-level `debug` key of `{file}` to the boolean `false`. Leave the other "
     "settings as they are; the file has to stay valid JSON."),
    ("pool-size", "/etc/pgbouncer/pool.json", ["pool", "max_client_conn"], 250,
     {"listen_port": 6432, "pool": {"mode": "transaction", "max_client_conn": 100, "default_pool_size": 20},
      "auth_type": "md5"},
     "Raise `max_client_conn` (inside the `pool` object) in `{file}` to 250, as an integer. Edit the file in "
     "place and do not touch any other value."),
    ("dark-mode", "/opt/app/features.json", ["features", "dark_mode"], True,
     {"app": "notes", "features": {"dark_mode": False, "sync": True, "export_pdf": False}, "max_notes": 500},
     "Enable the dark mode feature: `features.dark_mode` in `{file}` should become the JSON boolean true. "
     "All the other keys and values must stay the same."),
    ("client-timeout", "/home/dev/svc/client.json", ["http", "timeout"], 45,
     {"base_url": "https://api.example.com", "http": {"timeout": "30", "retries": 2, "verify_tls": True},
      "user_agent": "svc-client/1.2"},
     "Set `http.timeout` in `{file}` to 45. The new value must be a JSON number (not a string); keep every "
     "other setting unchanged."),
    ("replicas", "/app/deploy/app.json", ["spec", "replicas"], 5,
     {"kind": "Deployment", "metadata": {"name": "api", "namespace": "prod"},
      "spec": {"replicas": 2, "selector": {"app": "api"}, "strategy": "RollingUpdate"}},
     "Scale the deployment described in `{file}` to 5 replicas by setting `spec.replicas` to the number 5 in "
     "that file. Nothing else in it may change."),
    ("cache-enabled", "/var/lib/cache/cache.json", ["cache", "enabled"], True,
     {"cache": {"enabled": False, "ttl_seconds": 600, "backend": "redis"}, "redis": {"host": "127.0.0.1",
                                                                                  "port": 6379}},
     "Please update `{file}` in place so that the `enabled` flag of the `cache` section is `true` (a JSON "
     "boolean). The rest of the configuration must be preserved."),
    ("learning-rate", "/data/model/params.json", ["training", "learning_rate"], 0.0005,
     {"model": "resnet18", "training": {"epochs": 30, "batch_size": 64, "learning_rate": 0.001},
      "seed": 1234},
     "Lower the learning rate in `{file}`: `training.learning_rate` must become the number 0.0005. Every "
     "other field keeps its current value and the file must remain valid JSON."),
]


def _json_set_field() -> Family:
    instances = []
    for key, file, path, value, data, wording in _SET:
        want = json.loads(json.dumps(data))
        node = want
        for k in path[:-1]:
            node = node[k]
        assert path[-1] in node and node[path[-1]] != value
        node[path[-1]] = value
        setup = "\n".join([_dirs(file), _heredoc(file, json.dumps(data, indent=2))])
        solve = "\n".join([
            "python3 - <<'PY'",
            "import json",
            f"d = json.load(open({file!r}))",
            f"d{_py_path(path)} = {value!r}",
            f"json.dump(d, open({file!r}, 'w'), indent=2)",
            "PY",
        ])
        checks = "\n".join([
            _CANON,
            _json_load_check(file),
            f"want = {want!r}",
            f"check(data is not None and canon(data) == canon(want), "
            f"{'.'.join(path) + ' is ' + json.dumps(value) + ' (not a string), everything else unchanged'!r})",
        ])
        instances.append(Instance(key=key, instruction=wording.format(file=file), setup=setup, solve=solve,
                                  checks=checks, tags=("json", "python3")))
        SLIPS[f"json-set-field-{key}"] = "\n".join([
            "python3 - <<'PY'",
            "import json",
            f"d = json.load(open({file!r}))",
            f"d{_py_path(path)} = {json.dumps(value)!r}",
            f"json.dump(d, open({file!r}, 'w'), indent=2)",
            "PY",
        ])
    return Family(name="json-set-field", category="json-csv",
                  recipe="python3: d = json.load(f); d[A][B] = VALUE; json.dump(d, f, indent=2)",
                  slip="the value written as a string (\"8080\", \"true\") instead of a JSON number or boolean; "
                       "jq is not installed",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# csv-sum-column: the sum of a column chosen by its header name

_FIRST = ["Ana", "Ben", "Chloe", "Dmitri", "Elif", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kofi", "Lena"]
_LAST = ["Ortiz", "Berg", "Nakamura", "Novak", "Okafor", "Silva", "Haddad", "Moreau", "Kowalski", "Lund"]
_STREETS = ["Elm Street", "Harbor Road", "Mill Lane", "King Avenue", "Station Square", "Park Row"]


def _sum_rows(key: str) -> tuple[list[str], list[list], str, str]:
    """Header, rows, the column to sum and the column a slip would sum instead."""
    r = random.Random(key)
    if key == "sales-amount":
        header = ["order_id", "customer", "amount", "region"]
        rows = [[1000 + i, r.choice(_FIRST), r.randint(20, 900), r.choice(["north", "south", "east", "west"])]
                for i in range(30)]
        return header, rows, "amount", "order_id"
    if key == "timesheet-hours":
        header = ["date", "employee", "hours", "project", "rate"]
        rows = [[f"2024-04-{1 + i // 3:02d}", r.choice(_FIRST), r.randint(1, 9), r.choice(["atlas", "beacon"]),
                 r.choice([45, 60, 75])] for i in range(36)]
        return header, rows, "hours", "rate"
    if key == "order-quantity":
        header = ["id", "customer", "address", "quantity", "unit_price"]
        rows = [[i + 1, f"{r.choice(_LAST)}, {r.choice(_FIRST)}", f"{r.randint(1, 99)} {r.choice(_STREETS)}",
                 r.randint(1, 12), r.choice([5, 12, 40, 99])] for i in range(25)]
        return header, rows, "quantity", "unit_price"
    if key == "bytes-out":
        header = ["timestamp", "bytes_in", "bytes_out", "host"]
        rows = [[f"2024-06-01T{i // 4:02d}:{15 * (i % 4):02d}:00", r.randint(1000, 90000), r.randint(500, 400000),
                 r.choice(["edge-1", "edge-2", "edge-3"])] for i in range(40)]
        return header, rows, "bytes_out", "bytes_in"
    if key == "expense-cost":
        header = ["category", "description", "cost", "approved_by"]
        rows = [[r.choice(["travel", "meals", "software", "office"]), r.choice(["taxi", "lunch", "license", "paper"]),
                 f"{r.randint(3, 180)}.{r.randint(0, 99):02d}", r.choice(_FIRST)] for i in range(24)]
        return header, rows, "cost", "description"
    if key == "stock-units":
        header = ["sku", "name", "warehouse", "units", "reorder_level"]
        names = ["Cable, USB-C 1m", "Mouse, wireless", "Keyboard", "Monitor stand", "Charger, 65W", "Webcam"]
        rows = [[f"SKU-{300 + i}", r.choice(names), r.choice(["berlin", "lyon"]), r.randint(0, 400),
                 r.choice([10, 20, 50])] for i in range(28)]
        return header, rows, "units", "reorder_level"
    if key == "exam-score":
        header = ["score", "student_id", "attempts", "grade_level"]
        rows = [[r.randint(35, 100), f"S{2000 + i}", r.randint(1, 3), r.choice([9, 10, 11, 12])] for i in range(32)]
        return header, rows, "score", "grade_level"
    if key == "donations":
        header = ["donor", "note", "amount_eur", "campaign"]
        notes = ["monthly, via bank", "one-off", "in memory of, Lund family", "matched, employer", "gift aid"]
        rows = [[f"{r.choice(_FIRST)} {r.choice(_LAST)}", r.choice(notes), r.choice([5, 10, 20, 25, 50, 100, 250]),
                 r.choice(["spring-2024", "winter-2023"])] for i in range(26)]
        return header, rows, "amount_eur", "campaign"
    raise KeyError(key)


_SUM = [
    ("sales-amount", "/app/sales.csv", "/app/total.txt",
     "Add up the `{col}` column of `{file}` (its first line is a header) and write only the total to `{out}`."),
    ("timesheet-hours", "/home/pm/timesheet.csv", "/home/pm/hours_total.txt",
     "How many hours were logged in total? Sum the `{col}` column of the CSV file `{file}` (it has a header "
     "row) and put just the number in `{out}`."),
    ("order-quantity", "/srv/shop/orders.csv", "/srv/shop/qty_sum.txt",
     "`{file}` is a CSV export of orders with a header line. Write the sum of its `{col}` column, and nothing "
     "else, to `{out}`."),
    ("bytes-out", "/var/log/transfer/transfers.csv", "/var/log/transfer/out_total.txt",
     "Compute the total of the `{col}` values in `{file}` (a CSV whose first row names the columns). "
     "`{out}` must contain only that number."),
    ("expense-cost", "/app/finance/expenses.csv", "/app/finance/total_cost.txt",
     "Sum the `{col}` field over all rows of `{file}` (its first row is the header) and save the result as a "
     "bare number in `{out}`."),
    ("stock-units", "/opt/catalog/stock.csv", "/opt/catalog/units.txt",
     "We need the number of units in stock across all warehouses: add up column `{col}` of `{file}`, whose "
     "first line is the header, and write the total alone to `{out}`."),
    ("exam-score", "/data/exam/scores.csv", "/data/exam/score_sum.txt",
     "Write the sum of the `{col}` column of `{file}` into `{out}`. The file starts with a header row; the "
     "output file should hold only the sum."),
    ("donations", "/root/donations.csv", "/root/raised.txt",
     "Find out how much was donated: total the `{col}` column in `{file}` (first line = column names) and "
     "store only that figure in `{out}`."),
]


def _csv_sum_column() -> Family:
    instances = []
    for key, file, out, wording in _SUM:
        header, rows, col, wrong = _sum_rows(key)
        text = _csv_text(header, rows)
        parsed = list(csv.DictReader(io.StringIO(text)))
        total = sum(float(row[col]) for row in parsed)
        assert abs(total - round(total, 2)) < 1e-6 and total < 1e7
        index = header.index(col)
        naive = [line.split(",") for line in text.splitlines()[1:]]
        naive_sum = sum(float(f[index]) if f[index].replace(".", "").isdigit() else 0.0 for f in naive)
        quoted = '"' in text
        assert quoted == (abs(naive_sum - total) > 0.001)
        setup = "\n".join([_dirs(file, out), _heredoc(file, text)])
        solve = "\n".join([
            "python3 - <<'PY'",
            "import csv",
            f"total = sum(float(row[{col!r}]) for row in csv.DictReader(open({file!r})))",
            f"open({out!r}, 'w').write(f'{{int(total)}}\\n' if total == int(total) else f'{{total:.2f}}\\n')",
            "PY",
        ])
        want = round(total, 2)
        checks = "\n".join([
            _exists_check(out),
            "try:",
            "    value = float(got.strip()) if got is not None else None",
            "except ValueError:",
            "    value = None",
            f"check(value is not None and abs(value - {want!r}) < 0.005, "
            f"f'it holds only the sum {want:g} (got {{got!r}})')",
        ])
        instances.append(Instance(key=key, instruction=wording.format(col=col, file=file, out=out), setup=setup,
                                  solve=solve, checks=checks, tags=("csv", "awk", "python3")))
        # the slip: awk -F, on the right position (wrong when a quoted field holds a comma), or a wrong column
        slip_index = index if quoted else header.index(wrong)
        SLIPS[f"csv-sum-column-{key}"] = f"awk -F, 'NR > 1 {{s += ${slip_index + 1}}} END {{print s}}' {file} > {out}"
    return Family(name="csv-sum-column", category="json-csv",
                  recipe="python3 csv.DictReader: sum(float(row[COL])) > OUT (or awk -F, 'NR>1{s+=$N}' when no "
                         "field is quoted)",
                  slip="summing the wrong column (a position guessed, or shifted by a quoted field holding a "
                       "comma) or counting the header",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# csv-count-distinct: how many distinct values a named column holds (the header is not a value)

_DISTINCT = [
    ("customers", "/app/orders.csv", "/app/customer_count.txt", "customer",
     ["order_id", "customer", "product", "qty"], 30,
     "How many different customers appear in the `{col}` column (the {pos} column) of `{file}` (its first "
     "line is a header)? A customer who placed several orders counts once. Write only that number to "
     "`{out}`."),
    ("client-ips", "/var/log/nginx/access.csv", "/var/log/nginx/unique_ips.txt", "client_ip",
     ["ts", "client_ip", "method", "path", "status"], 45,
     "Count the distinct values of the `{col}` column in `{file}` (a comma-separated file whose header row "
     "is `{header}`) and put just the count in `{out}`."),
    ("countries", "/data/users.csv", "/data/country_count.txt", "country",
     ["id", "name", "email", "country", "signup_date"], 40,
     "Our users come from how many countries? Use the `{col}` column of `{file}`, its {pos} comma-separated "
     "field; the first row holds the column names. Each country counts once however many users it has (not "
     "the number of users). Save the number alone to `{out}`."),
    ("status-codes", "/srv/api/requests.csv", "/srv/api/status_kinds.txt", "status",
     ["request_id", "endpoint", "latency_ms", "status"], 50,
     "Write to `{out}` how many distinct `{col}` values occur in `{file}`, a CSV whose first line is the "
     "header `{header}` (so `{col}` is field {num}). The output file must contain only the number."),
    ("products", "/home/analyst/sales_2024.csv", "/home/analyst/product_count.txt", "product",
     ["date", "region", "product", "units"], 60,
     "`{file}` has one sale per line after a header. Find the number of different products sold (column "
     "`{col}`, the {pos} one) and write it, as a bare number, to `{out}`."),
    ("vehicles", "/opt/fleet/trips.csv", "/opt/fleet/vehicles.txt", "vehicle",
     ["vehicle", "driver", "km", "date"], 28,
     "Determine how many unique vehicles are listed in the `{col}` column of `{file}` (the {pos} of its "
     "comma-separated columns; the first line is the header) and store only that count in `{out}`."),
    ("assignees", "/app/tickets/tickets.csv", "/app/tickets/assignee_count.txt", "assignee",
     ["id", "title", "assignee", "priority", "state"], 35,
     "Count how many different people tickets are assigned to, using the `{col}` column of `{file}` (which "
     "begins with the header row `{header}`). `{out}` should hold just that number."),
    ("destinations", "/root/shipments.csv", "/root/destinations.txt", "destination_city",
     ["shipment", "origin_city", "destination_city", "weight_kg"], 42,
     "I want the number of distinct destination cities in `{file}`: look at its `{col}` column (column "
     "{num}, counting from 1; the file has a header line) and write the number, nothing else, to `{out}`."),
]

_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}

_POOLS = {
    "customer": ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Linus Torvalds", "Ken Thompson", "Barbara Liskov"],
    "client_ip": [f"10.0.{i % 3}.{20 + 7 * i}" for i in range(9)],
    "country": ["Portugal", "Norway", "Japan", "Kenya", "Chile", "Canada", "Poland"],
    "status": ["200", "201", "304", "404", "500"],
    "product": ["kettle", "toaster", "blender", "mixer", "grill", "juicer", "scale", "fan", "heater", "lamp",
                "iron"],
    "vehicle": ["VAN-01", "VAN-02", "TRK-07", "CAR-12"],
    "assignee": ["maria", "tomas", "li", "oskar", "nadia", "sam", "ruth", "yusuf"],
    "destination_city": ["New York", "Sao Paulo", "Cape Town", "Oslo", "Hanoi", "Lima", "Perth", "Riga",
                         "Quebec City", "Tunis"],
}


def _distinct_cell(r: random.Random, column: str, i: int):
    choices = {
        "order_id": lambda: 5000 + i, "product": lambda: r.choice(_POOLS["product"]), "qty": lambda: r.randint(1, 5),
        "ts": lambda: f"2024-07-0{1 + i % 9}T12:{i % 60:02d}:00", "method": lambda: r.choice(["GET", "POST"]),
        "path": lambda: r.choice(["/", "/login", "/api/items", "/static/app.js"]),
        "status": lambda: r.choice(_POOLS["status"]), "id": lambda: i + 1, "name": lambda: r.choice(_FIRST),
        "email": lambda: f"user{i + 1}@example.com", "signup_date": lambda: f"2023-{1 + i % 12:02d}-15",
        "request_id": lambda: f"req-{9000 + i}", "endpoint": lambda: r.choice(["/v1/users", "/v1/orders"]),
        "latency_ms": lambda: r.randint(3, 900), "date": lambda: f"2024-03-{1 + i % 28:02d}",
        "region": lambda: r.choice(["north", "south"]), "units": lambda: r.randint(1, 40),
        "driver": lambda: r.choice(_FIRST), "km": lambda: r.randint(5, 600),
        "title": lambda: r.choice(["Login fails", "Slow page", "Typo on invoice", "Export broken"]),
        "priority": lambda: r.choice(["low", "high"]), "state": lambda: r.choice(["open", "closed"]),
        "shipment": lambda: f"SH{70000 + i}", "origin_city": lambda: r.choice(["Hamburg", "Rotterdam"]),
        "weight_kg": lambda: r.randint(1, 900),
    }
    if column in _POOLS and column not in ("product", "status"):
        return r.choice(_POOLS[column])
    return choices[column]()


def _csv_count_distinct() -> Family:
    instances = []
    for key, file, out, col, header, count, wording in _DISTINCT:
        r = random.Random(key)
        pool = _POOLS[col]
        rows = []
        for i in range(count):
            rows.append([_distinct_cell(r, c, i) for c in header])
        # every value of the pool occurs at least once, at random rows
        for value, i in zip(pool, r.sample(range(count), len(pool))):
            rows[i][header.index(col)] = value
        text = _csv_text(header, rows)
        assert '"' not in text
        distinct = len({row[col] for row in csv.DictReader(io.StringIO(text))})
        assert distinct == len(pool)
        setup = "\n".join([_dirs(file, out), _heredoc(file, text)])
        n = header.index(col) + 1
        solve = f"tail -n +2 {file} | cut -d, -f{n} | sort -u | wc -l > {out}\n"
        checks = "\n".join([
            _exists_check(out),
            f"check(got is not None and got.strip() == '{distinct}', f'it holds only {distinct} (got {{got!r}})')",
        ])
        instruction = wording.format(col=col, file=file, out=out, pos=_ORDINAL[n], num=n, header=",".join(header))
        instances.append(Instance(key=key, instruction=instruction, setup=setup, solve=solve, checks=checks,
                                  tags=("csv", "cut", "sort")))
        SLIPS[f"csv-count-distinct-{key}"] = f"cut -d, -f{n} {file} | sort -u | wc -l > {out}"
    return Family(name="csv-count-distinct", category="json-csv",
                  recipe="tail -n +2 FILE | cut -d, -fN | sort -u | wc -l > OUT",
                  slip="the header counted as one more value (cut | sort -u | wc -l without dropping line 1)",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# sqlite-query-to-file: one value of a SELECT on an existing table, written alone to a file

def _query_data(key: str) -> tuple[str, str, list[tuple]]:
    """Schema, table name, rows."""
    r = random.Random(key)
    if key == "error-count":
        levels = ["INFO"] * 5 + ["WARN"] * 2 + ["ERROR"] * 2 + ["DEBUG"]
        msgs = {"INFO": "request served", "WARN": "slow query", "ERROR": "upstream timeout", "DEBUG": "cache miss"}
        rows = []
        for i in range(60):
            level = r.choice(levels)
            rows.append((i + 1, f"2024-05-14 {8 + i // 10:02d}:{(i * 7) % 60:02d}:00", level, msgs[level]))
        return ("CREATE TABLE events (id INTEGER PRIMARY KEY, ts TEXT NOT NULL, level TEXT NOT NULL, "
                "message TEXT);", "events", rows)
    if key == "top-salary":
        depts = ["Engineering", "Sales", "Support", "Finance"]
        rows = [(i + 1, f"{r.choice(_FIRST)} {r.choice(_LAST)}", depts[i % 4], 1000 * r.randint(48, 120))
                for i in range(24)]
        rows.append((25, "Vera Lund", "Sales", 151000))  # the company-wide maximum is not in Engineering
        return ("CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT NOT NULL, department TEXT NOT NULL, "
                "salary INTEGER NOT NULL);", "employees", rows)
    if key == "first-user":
        names = ["zoe", "marek", "ines", "tariq", "bjorn", "keiko", "amara", "luca", "noor", "felix", "sana", "olaf"]
        days = r.sample(range(1, 300), len(names))
        rows = [(i + 1, n, f"{n}@example.net", f"2023-{1 + d // 28:02d}-{1 + d % 28:02d} 09:{d % 60:02d}:00")
                for i, (n, d) in enumerate(zip(names, days))]
        return ("CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT UNIQUE NOT NULL, email TEXT, "
                "created_at TEXT NOT NULL);", "users", rows)
    if key == "north-stock":
        items = ["bolts", "nuts", "washers", "hinges", "brackets", "screws", "rivets"]
        rows = [(f"P-{100 + i}", items[i % len(items)], r.choice(["north", "south", "east"]), r.randint(0, 500))
                for i in range(21)]
        return ("CREATE TABLE items (sku TEXT PRIMARY KEY, name TEXT, warehouse TEXT, qty INTEGER);", "items", rows)
    if key == "city-count":
        cities = ["Lisbon", "Porto", "Braga", "Faro", "Coimbra", "Evora", "Aveiro"]
        rows = [(i + 1, f"{r.choice(_FIRST)} {r.choice(_LAST)}", r.choice(cities)) for i in range(30)]
        return ("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);", "customers", rows)
    if key == "biggest-order":
        totals = r.sample(range(500, 90000), 18)
        rows = [(i + 1, f"{r.choice(_FIRST)} {r.choice(_LAST)}", t, f"2024-02-{1 + i:02d}")
                for i, t in enumerate(totals)]
        return ("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total_cents INTEGER NOT NULL, "
                "placed_at TEXT NOT NULL);", "orders", rows)
    if key == "coldest-reading":
        rows = [(i + 1, f"temp-{1 + i % 3}", f"2024-01-{1 + i // 3:02d} 06:00",
                 round(r.randint(-80, 120) / 10 + 0.5 * (i % 2), 1)) for i in range(36)]
        rows.append((37, "temp-3", "2024-01-13 06:00", -11.5))  # the coldest of all is not temp-2's
        return ("CREATE TABLE readings (id INTEGER PRIMARY KEY, sensor TEXT NOT NULL, recorded_at TEXT NOT NULL, "
                "value REAL NOT NULL);", "readings", rows)
    if key == "oldest-book":
        books = [("Dune", "Frank Herbert", 1965), ("Neuromancer", "William Gibson", 1984),
                 ("The Left Hand of Darkness", "Ursula K. Le Guin", 1969), ("Foundation", "Isaac Asimov", 1951),
                 ("Kindred", "Octavia E. Butler", 1979), ("Hyperion", "Dan Simmons", 1989),
                 ("The Dispossessed", "Ursula K. Le Guin", 1974), ("Solaris", "Stanislaw Lem", 1961)]
        return ("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author TEXT NOT NULL, "
                "year INTEGER NOT NULL);", "books", [(i + 1, *b) for i, b in enumerate(books)])
    raise KeyError(key)


_QUERY = [
    ("error-count", "/app/logs.db", "/app/error_count.txt", "num",
     "SELECT COUNT(*) FROM events WHERE level = 'ERROR'",
     "The SQLite database `{db}` has an `events` table. Count its rows whose `level` is `ERROR` and write only "
     "that number to `{out}`."),
    ("top-salary", "/srv/hr/staff.db", "/srv/hr/top_salary.txt", "num",
     "SELECT MAX(salary) FROM employees WHERE department = 'Engineering'",
     "What is the highest `salary` in the `Engineering` department? The data is in the `employees` table of "
     "`{db}` (SQLite). Put just the amount in `{out}`."),
    ("first-user", "/data/app.sqlite", "/data/first_user.txt", "text",
     "SELECT username FROM users ORDER BY created_at LIMIT 1",
     "Find the `username` of the account that was created first (the earliest `created_at`) in the `users` "
     "table of the SQLite database `{db}`, and save only that username to `{out}`."),
    ("north-stock", "/opt/inventory/stock.db", "/opt/inventory/north_total.txt", "num",
     "SELECT SUM(qty) FROM items WHERE warehouse = 'north'",
     "Write the total `qty` of all `items` stored in the `north` warehouse, according to the SQLite database "
     "`{db}`, to `{out}`. The file must contain the number alone."),
    ("city-count", "/home/dev/crm.db", "/home/dev/city_count.txt", "num",
     "SELECT COUNT(DISTINCT city) FROM customers",
     "How many different cities do the customers in `{db}` (table `customers`, column `city`) live in? "
     "Query the existing SQLite database and store the bare number in `{out}`."),
    ("biggest-order", "/var/lib/shop/shop.db", "/var/lib/shop/top_customer.txt", "text",
     "SELECT customer FROM orders ORDER BY total_cents DESC LIMIT 1",
     "In the SQLite database `{db}`, which `customer` placed the order with the largest `total_cents` in the "
     "`orders` table? Write that customer's name, and nothing else, to `{out}`."),
    ("coldest-reading", "/app/metrics/metrics.db", "/app/metrics/temp2_min.txt", "num",
     "SELECT MIN(value) FROM readings WHERE sensor = 'temp-2'",
     "Look up the lowest `value` recorded by the sensor `temp-2` in the `readings` table of `{db}` (an "
     "SQLite database) and write that value alone to `{out}`."),
    ("oldest-book", "/root/library.db", "/root/oldest_title.txt", "text",
     "SELECT title FROM books ORDER BY year LIMIT 1",
     "Using the `books` table of the SQLite database `{db}`, write the `title` of the book with the smallest "
     "`year` to `{out}`: the title only, no other columns."),
]


def _sqlite_query_to_file() -> Family:
    instances = []
    for key, db, out, kind, sql, wording in _QUERY:
        schema, table, rows = _query_data(key)
        conn = _memory_db(schema, table, rows)
        result = conn.execute(sql).fetchall()
        # the answer is unique: a second-place tie would make "the first/largest" ambiguous
        if " ORDER BY " in sql:
            by = sql.split(" ORDER BY ")[1].replace(" LIMIT 1", "")
            top = conn.execute(f"SELECT {by.split()[0]} FROM {table} ORDER BY {by} LIMIT 2").fetchall()
            assert top[0] != top[1], key
        value = result[0][0]
        if " WHERE " in sql:  # the answer without the condition is another one
            assert conn.execute(sql.split(" WHERE ")[0]).fetchall() != result, key
        setup = _sqlite_setup(db, schema, table, rows)
        solve = f"sqlite3 {db} \"{sql};\" > {out}\n"
        if kind == "num":
            cond = f"value is not None and abs(value - {float(value)!r}) < 1e-9"
            checks = "\n".join([
                _exists_check(out),
                "try:",
                "    value = float(got.strip()) if got is not None else None",
                "except ValueError:",
                "    value = None",
                f"check({cond}, f'it holds only the number {value} (got {{got!r}})')",
            ])
        else:
            checks = "\n".join([
                _exists_check(out),
                f"check(got is not None and got.strip() == {value!r}, "
                f"'it holds only ' + {value!r} + f' (got {{got!r}})')",
            ])
        instances.append(Instance(key=key, instruction=wording.format(db=db, out=out), setup=setup, solve=solve,
                                  checks=checks, tags=("sqlite3",)))
        SLIPS[f"sqlite-query-to-file-{key}"] = f"sqlite3 -header {db} \"{sql};\" > {out}"
    return Family(name="sqlite-query-to-file", category="sqlite",
                  recipe="sqlite3 DB \"SELECT ...;\" > OUT",
                  slip="-header (or .mode line/box) adds the column name; the result printed, not written; "
                       "the queried table created anew",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# sqlite-update-rows: UPDATE ... WHERE on an existing table; the other rows stay as they are

def _update_data(key: str) -> tuple[str, str, list[tuple]]:
    r = random.Random(key)
    if key == "deactivate-users":
        names = ["akim", "bfox", "cruiz", "dlee", "emma", "fino", "gita", "hugo", "iris", "jonas"]
        rows = [(i + 1, n, f"{n}@corp.example", 1, f"202{3 + i % 2}-{1 + (i * 5) % 12:02d}-1{i % 10}")
                for i, n in enumerate(names)]
        return ("CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT NOT NULL, email TEXT, "
                "active INTEGER NOT NULL, last_login TEXT);", "users", rows)
    if key == "cable-price":
        goods = [("CB-USB", "USB cable", "cables", 799), ("KB-200", "Mechanical keyboard", "input", 8900),
                 ("CB-HDMI", "HDMI cable", "cables", 1299), ("MS-110", "Wireless mouse", "input", 2450),
                 ("CB-ETH", "Ethernet cable 5m", "cables", 1050), ("MN-270", "27-inch monitor", "displays", 24900),
                 ("HB-4", "USB hub", "accessories", 1999)]
        return ("CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, name TEXT NOT NULL, "
                "category TEXT NOT NULL, price_cents INTEGER NOT NULL);", "products",
                [(i + 1, *g) for i, g in enumerate(goods)])
    if key == "archive-tickets":
        titles = ["Login fails", "Slow dashboard", "Typo in footer", "Export to CSV broken", "Password reset mail",
                  "Dark mode colors", "API rate limit", "Broken link on pricing"]
        rows = []
        for i, t in enumerate(titles):
            status = ["closed", "open", "pending", "closed"][i % 4]
            rows.append((i + 1, t, status, f"2024-03-{10 + i}" if status == "closed" else None))
        return ("CREATE TABLE tickets (id INTEGER PRIMARY KEY, title TEXT NOT NULL, status TEXT NOT NULL, "
                "closed_at TEXT);", "tickets", rows)
    if key == "support-raise":
        rows = [(i + 1, f"{r.choice(_FIRST)} {_LAST[i]}", ["Support", "Engineering", "Sales"][i % 3],
                 1000 * r.randint(38, 90)) for i in range(10)]
        return ("CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT NOT NULL, dept TEXT NOT NULL, "
                "salary INTEGER NOT NULL);", "staff", rows)
    if key == "unowned-tasks":
        titles = ["Rotate TLS certs", "Update README", "Fix flaky test", "Bump base image", "Clean old backups",
                  "Review alerts", "Write changelog"]
        owners = ["tomas", None, "li", None, "tomas", None, "oskar"]
        return ("CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, owner TEXT, priority INTEGER);",
                "tasks", [(i + 1, t, o, 1 + i % 3) for i, (t, o) in enumerate(zip(titles, owners))])
    if key == "ship-packed":
        rows = []
        for i in range(12):
            rows.append((1000 + i, f"{_FIRST[i]} {_LAST[i % len(_LAST)]}", ["packed", "shipped", "packed"][i % 3],
                         ["DHL", "UPS", "DHL", "GLS"][i % 4]))
        return ("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, status TEXT NOT NULL, "
                "carrier TEXT NOT NULL);", "orders", rows)
    if key == "classic-sale":
        books = [("Dune", 1965), ("Neuromancer", 1984), ("Snow Crash", 1992), ("Foundation", 1951),
                 ("The Martian", 2011), ("Hyperion", 1989), ("Anathem", 2008), ("Solaris", 1961)]
        return ("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER NOT NULL, "
                "on_sale INTEGER NOT NULL DEFAULT 0);", "books", [(i + 1, t, y, 0) for i, (t, y) in enumerate(books)])
    if key == "frankfurt-region":
        hosts = ["fra-web-1", "ams-web-1", "fra-db-1", "lon-web-2", "fra-cache-1", "ams-db-1"]
        return ("CREATE TABLE servers (id INTEGER PRIMARY KEY, hostname TEXT NOT NULL, region TEXT NOT NULL, "
                "ip TEXT NOT NULL);", "servers",
                [(i + 1, h, "unassigned" if h.startswith("fra-") else {"ams": "eu-west", "lon": "uk-south"}[h[:3]],
                  f"10.4.{i}.{10 + i}") for i, h in enumerate(hosts)])
    raise KeyError(key)


_UPDATE = [
    ("deactivate-users", "/app/users.db", "users",
     "UPDATE users SET active = 0 WHERE last_login < '2024-01-01'",
     "In the SQLite database `{db}`, mark every user whose `last_login` is before `2024-01-01` as inactive by "
     "setting `active` to 0 in the `users` table. Users who logged in later must stay active."),
    ("cable-price", "/srv/shop/shop.db", "products",
     "UPDATE products SET price_cents = 999 WHERE category = 'cables'",
     "Set `price_cents` to 999 for every product in the `cables` category (table `products` of the SQLite "
     "database `{db}`). Products of other categories keep their prices."),
    ("archive-tickets", "/opt/helpdesk/tickets.db", "tickets",
     "UPDATE tickets SET status = 'archived' WHERE status = 'closed'",
     "The helpdesk database `{db}` (SQLite) has a `tickets` table. Change the `status` of all tickets that are "
     "currently `closed` to `archived`; open and pending tickets must not change."),
    ("support-raise", "/home/hr/payroll.db", "staff",
     "UPDATE staff SET salary = salary + 1000 WHERE dept = 'Support'",
     "Give everyone in the `Support` department a raise of 1000: increase their `salary` in the `staff` table "
     "of `{db}` by 1000. Nobody else's salary changes."),
    ("unowned-tasks", "/var/lib/tasks/tasks.db", "tasks",
     "UPDATE tasks SET owner = 'maria' WHERE owner IS NULL",
     "Assign every task in `{db}` that has no owner yet (its `owner` is NULL in the `tasks` table) to `maria`. "
     "Tasks that already have an owner keep it."),
    ("ship-packed", "/data/orders.db", "orders",
     "UPDATE orders SET status = 'shipped' WHERE status = 'packed' AND carrier = 'DHL'",
     "All packed DHL orders went out today. In the `orders` table of the SQLite file `{db}`, set `status` to "
     "`shipped` for the rows whose `status` is `packed` and whose `carrier` is `DHL`; leave every other row "
     "exactly as it is."),
    ("classic-sale", "/app/catalog/books.db", "books",
     "UPDATE books SET on_sale = 1 WHERE year < 1990",
     "Put the classics on sale: in `{db}`, table `books`, set `on_sale` to 1 for the books whose `year` is "
     "before 1990. The other books stay at their current `on_sale` value."),
    ("frankfurt-region", "/root/sites.db", "servers",
     "UPDATE servers SET region = 'eu-central' WHERE hostname LIKE 'fra-%'",
     "The servers whose `hostname` starts with `fra-` are in Frankfurt. Update the `servers` table of the "
     "SQLite database `{db}` so that their `region` is `eu-central`, without changing any other server."),
]


def _sqlite_update_rows() -> Family:
    instances = []
    for key, db, table, sql, wording in _UPDATE:
        schema, table_, rows = _update_data(key)
        assert table_ == table
        order = f"SELECT * FROM {table} ORDER BY rowid"
        conn = _memory_db(schema, table, rows)
        before = conn.execute(order).fetchall()
        conn.execute(sql)
        want = conn.execute(order).fetchall()
        changed = sum(a != b for a, b in zip(before, want))
        assert 0 < changed < len(want), key
        careless = _memory_db(schema, table, rows)
        careless.execute(sql.split(" WHERE ")[0])
        assert careless.execute(order).fetchall() != want
        setup = _sqlite_setup(db, schema, table, rows)
        solve = f"sqlite3 {db} \"{sql};\"\n"
        checks = "\n".join([
            f"rows = query({db!r}, {order!r})",
            "print('rows:', rows)",
            f"check(rows == {want!r}, 'the {changed} matching rows updated, every other row unchanged')",
        ])
        instances.append(Instance(key=key, instruction=wording.format(db=db), setup=setup, solve=solve,
                                  checks=checks, tags=("sqlite3", "update")))
        SLIPS[f"sqlite-update-rows-{key}"] = f"sqlite3 {db} \"{sql.split(' WHERE ')[0]};\""
    return Family(name="sqlite-update-rows", category="sqlite",
                  recipe="sqlite3 DB \"UPDATE T SET COL = V WHERE COND;\"",
                  slip="an UPDATE without its WHERE (or a wrong condition) changes rows that must stay",
                  instances=instances)


# ---------------------------------------------------------------------------------------------------
# csv-to-json: CSV with a header to a JSON array of objects, named columns as JSON numbers

_TO_JSON = [
    ("users", "/app/users.csv", "/app/users.json", ["name", "age", "city"], ["age"],
     [["Ada", "36", "London"], ["Alan", "41", "Manchester"], ["Grace", "85", "New York"], ["Linus", "54", "Portland"]],
     "Convert `{src}` (its first line is a header) to `{dst}`: a JSON array with one object per row, in file "
     "order, whose keys are the header's column names, with {nums} as a JSON number (not a string: "
     "{example}) and the other values as strings. The container has `python3` (not `python`); jq and "
     "csvkit are not installed. A short script in a file, run with python3, is easier to get right than a "
     "one-line `python3 -c`."),
    ("products", "/srv/catalog/products.csv", "/srv/catalog/products.json", ["sku", "name", "price", "stock"],
     ["price", "stock"],
     [["KB-200", "Mechanical keyboard", "89.90", "14"], ["MS-110", "Wireless mouse", "24.50", "0"],
      ["CB-USB", "USB cable", "7.99", "250"], ["MN-270", "27-inch monitor", "249", "3"]],
     "Turn the CSV file `{src}` into JSON at `{dst}`. The result must be an array of objects, one per data row "
     "and in the same order, keyed by the column names from the header line. {nums} must be JSON numbers; "
     "keep all other fields as strings. Use python3 (jq and csvkit are not available); write the program as a "
     "few lines in a heredoc or a .py file, since `with` blocks do not fit in a one-line `python3 -c`."),
    ("sensor-readings", "/data/iot/readings.csv", "/data/iot/readings.json",
     ["sensor", "timestamp", "temperature", "humidity"], ["temperature", "humidity"],
     [["temp-1", "2024-01-05T06:00:00Z", "-3.5", "81"], ["temp-2", "2024-01-05T06:00:00Z", "-1.25", "77"],
      ["temp-1", "2024-01-05T07:00:00Z", "-2.0", "79"], ["temp-3", "2024-01-05T07:00:00Z", "0.5", "90"],
      ["temp-2", "2024-01-05T08:00:00Z", "1.75", "70"]],
     "Write the sensor data of `{src}` (a CSV with a header row) as a JSON array of objects to `{dst}`: one "
     "object per row, in order, with the column names as keys. Store {nums} as numbers and the remaining "
     "columns as strings. Only python3 is there for this (no jq, no csvkit, no `python` command)."),
    ("grades", "/home/teacher/grades.csv", "/home/teacher/grades.json", ["student", "class", "score"], ["score"],
     [["Mia Novak", "7B", "88"], ["Omar Haddad", "7A", "93"], ["Lea Berg", "7B", "71"], ["Ivo Silva", "7A", "64"],
      ["Zoe Lund", "7C", "100"], ["Kai Moreau", "7C", "79"]],
     "Produce `{dst}` from `{src}`: a JSON list that holds one object per student row (same order as the CSV, "
     "whose first line names the columns). Use the header names as keys, make {nums} a number ({example}), "
     "and leave the other values as strings. Tools: python3 is installed, jq is not; a multi-line python3 "
     "script works where a `python3 -c` one-liner with a `with` statement is a syntax error."),
    ("cities", "/opt/geo/cities.csv", "/opt/geo/cities.json", ["city", "country", "population", "area_km2"],
     ["population", "area_km2"],
     [["Lisbon", "Portugal", "545000", "100.05"], ["Washington, D.C.", "United States", "689545", "177"],
      ["Oslo", "Norway", "709000", "454"], ["Canberra", "Australia", "456692", "814.2"]],
     "Convert the city table `{src}` (header on the first line; one city name contains a comma inside "
     "quotes) to a JSON array of objects in `{dst}`, one object per city in file order, with the header's "
     "column names as keys; {nums} become JSON numbers, everything else stays a string. Write it with a "
     "python3 script (jq and csvkit are not installed)."),
    ("hosts", "/etc/inventory/hosts.csv", "/etc/inventory/hosts.json", ["hostname", "ip", "cpus", "memory_gb", "role"],
     ["cpus", "memory_gb"],
     [["web-1", "10.0.0.11", "4", "8", "web"], ["web-2", "10.0.0.12", "4", "8", "web"],
      ["db-1", "10.0.1.5", "16", "64", "database"], ["cache-1", "10.0.2.9", "2", "4", "cache"]],
     "Generate `{dst}` from the host inventory `{src}`. It should be a JSON array containing an object for "
     "every host row, in the original order, keyed by the CSV header. The {nums} fields have to be numeric "
     "JSON values ({example}); the rest are strings. python3 is available for this, jq is not."),
    ("books", "/app/library/books.csv", "/app/library/books.json", ["title", "author", "year", "pages"],
     ["year", "pages"],
     [["Dune", "Frank Herbert", "1965", "412"], ["Gödel, Escher, Bach", "Douglas Hofstadter", "1979", "777"],
      ["Snow Crash", "Neal Stephenson", "1992", "480"], ["Kindred", "Octavia E. Butler", "1979", "264"]],
     "Export `{src}` as JSON: write to `{dst}` an array of objects, one for each book row of the CSV (the first "
     "line is its header), keeping the row order and using the column names as keys. {nums} are numbers in "
     "the JSON, the other fields strings. Use python3 (not `python`); write the program over several lines "
     "(a heredoc or a script file) rather than one `python3 -c` line."),
    ("expenses", "/root/expenses.csv", "/root/expenses.json", ["date", "category", "amount", "note"], ["amount"],
     [["2024-04-02", "travel", "42.80", "taxi to airport"], ["2024-04-03", "meals", "18.5", "lunch"],
      ["2024-04-07", "software", "120", "editor license"], ["2024-04-09", "office", "9.99", "paper"]],
     "I need `{src}` in JSON form. Create `{dst}` holding a JSON array with one object per expense (rows in "
     "file order; the CSV's header line gives the keys). {nums} must be a JSON number rather than a string; "
     "all other values stay strings. There is no jq or csvkit here, but python3 is installed."),
]


def _names(cols: list[str]) -> str:
    quoted = [f"`{c}`" for c in cols]
    return quoted[0] if len(quoted) == 1 else " and ".join(quoted)


def _number(text: str):
    return float(text) if "." in text else int(text)


def _csv_to_json() -> Family:
    instances = []
    for key, src, dst, header, nums, rows, wording in _TO_JSON:
        text = _csv_text(header, rows)
        want = [{c: (_number(v) if c in nums else v) for c, v in zip(header, row)} for row in rows]
        setup = "\n".join([_dirs(src, dst), _heredoc(src, text)])
        solve = "\n".join([
            "python3 - <<'PY'",
            "import csv, json",
            f"rows = list(csv.DictReader(open({src!r}, encoding='utf-8')))",
            "for row in rows:",
            f"    for col in {nums!r}:",
            "        row[col] = float(row[col]) if '.' in row[col] else int(row[col])",
            f"json.dump(rows, open({dst!r}, 'w', encoding='utf-8'), indent=2, ensure_ascii=False)",
            "PY",
        ])
        checks = "\n".join([
            _CANON,
            _json_load_check(dst),
            f"want = {want!r}",
            "check(isinstance(data, list) and [canon(r) for r in data] == [canon(r) for r in want],",
            f"      'one object per row in order, ' + {_names(nums).replace('`', '')!r} + ' as numbers, the rest strings')",
        ])
        example = (f'`"{nums[0]}": {json.dumps(want[0][nums[0]])}`, not '
                   f'`"{nums[0]}": "{rows[0][header.index(nums[0])]}"`')
        instruction = wording.format(src=src, dst=dst, nums=_names(nums), example=example)
        instances.append(Instance(key=key, instruction=instruction, setup=setup, solve=solve, checks=checks,
                                  tags=("csv", "json", "python3")))
        SLIPS[f"csv-to-json-{key}"] = (
            f"python3 -c 'import csv, json; json.dump(list(csv.DictReader(open(\"{src}\"))), open(\"{dst}\", \"w\"))'")
    return Family(name="csv-to-json", category="json-csv",
                  recipe="python3: rows = list(csv.DictReader(f)); convert the numeric columns; json.dump(rows, out)",
                  slip="csv.DictReader straight into json.dump keeps the numbers as strings; jq/csvkit are not "
                       "installed",
                  instances=instances)


FAMILIES = [_json_read_field(), _json_pretty_indent(), _json_set_field(), _csv_sum_column(), _csv_count_distinct(),
            _sqlite_query_to_file(), _sqlite_update_rows(), _csv_to_json()]
