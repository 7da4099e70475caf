#!/bin/bash
set -e
W=$(mktemp -d)
mkdir -p /app/records "$W/x"
cp /app/incoming/delivery.tar.gz "$W/x/"
# repeatedly unpack any archive until none is left
while :; do
  found=0
  while IFS= read -r -d '' f; do
    found=1
    d="$f.d"; mkdir -p "$d"
    case "$f" in
      *.tar.gz|*.tgz) tar -xzf "$f" -C "$d" ;;
      *.tar.bz2)      tar -xjf "$f" -C "$d" ;;
      *.tar.xz)       tar -xJf "$f" -C "$d" ;;
      *.tar)          tar -xf "$f" -C "$d" ;;
      *.zip)          unzip -q "$f" -d "$d" ;;
      *.gz)           gunzip -c "$f" > "$d/$(basename "${f%.gz}")" ;;
    esac
    rm -f "$f"
  done < <(find "$W/x" -type f \( -name '*.tar.gz' -o -name '*.tgz' -o -name '*.tar.bz2' -o -name '*.tar.xz' -o -name '*.tar' -o -name '*.zip' -o -name '*.gz' \) -print0)
  [ $found = 1 ] || break
done
find "$W/x" -type f -name '*.csv' -exec cp {} /app/records/ \;
python3 - <<'P'
import csv, glob
rows = []
for p in glob.glob("/app/records/*.csv"):
    with open(p, newline="") as f:
        r = csv.reader(f)
        next(r)
        rows += [row for row in r if row]
rows.sort(key=lambda r: int(r[0]))
with open("/app/all_records.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["id", "value"])
    w.writerows(rows)
P
rm -rf "$W"
