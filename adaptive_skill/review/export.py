"""Ratings out of the database: CSV (one column per answer, blank where a kind has no such
question) or JSON (a list of objects). Every row is a rating as given, older ones included, so an
analysis can see re-ratings; `latest` marks the one that counts."""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path
from typing import Any

from adaptive_skill.errors import UserError
from adaptive_skill.ratings import Rating, latest
from adaptive_skill.review.forms import ANSWER_FIELDS

COLUMNS = ("id", "item", "kind", "rater", "created_at", "latest", *ANSWER_FIELDS)


def rows(ratings: list[Rating]) -> list[dict[str, Any]]:
    current = {r.id for r in latest(ratings).values()}
    return [{"id": r.id, "item": r.item, "kind": r.kind, "rater": r.rater,
             "created_at": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(r.created_at)),
             "latest": r.id in current, **{name: r.answers.get(name) for name in ANSWER_FIELDS}}
            for r in ratings]


def to_csv(ratings: list[Rating]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows(ratings):
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()


def to_json(ratings: list[Rating]) -> str:
    return json.dumps(rows(ratings), indent=1, ensure_ascii=False) + "\n"


def write(ratings: list[Rating], path: Path) -> None:
    """By the file's suffix, .csv or .json; written then renamed, so a reader never sees half a file."""
    formats = {".csv": to_csv, ".json": to_json}
    if path.suffix.lower() not in formats:
        raise UserError(f"{path}: --out needs a .csv or .json file name")
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(formats[path.suffix.lower()](ratings), encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        raise UserError(f"{path}: cannot write the export ({exc.strerror})") from None
