#!/bin/bash
mkdir -p /app/bin
cat > /app/bin/archive.sh <<'S'
#!/bin/bash
# archive.sh [-o OUTDIR] [-x PATTERN]... [-n] [-h] SRC_DIR
usage() { echo "usage: archive.sh [-o OUTDIR] [-x PATTERN]... [-n] [-h] SRC_DIR"; }
outdir=/app/archives
dry=0
excludes=()
while getopts ":o:x:nh" opt; do
  case $opt in
    o) outdir=$OPTARG ;;
    x) excludes+=("$OPTARG") ;;
    n) dry=1 ;;
    h) usage; exit 0 ;;
    :) echo "archive.sh: option -$OPTARG needs an argument" >&2; usage >&2; exit 2 ;;
    \?) echo "archive.sh: unknown option -$OPTARG" >&2; usage >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ]; then
  echo "archive.sh: expected exactly one SRC_DIR" >&2; usage >&2; exit 2
fi
src=${1%/}
[ -z "$src" ] && src=/
if [ ! -d "$src" ]; then
  echo "archive.sh: $1: not a directory" >&2; exit 3
fi
name=$(basename "$src")
parent=$(dirname "$src")

list_files() {
  (cd "$src" && find . -type f -print0) | while IFS= read -r -d '' f; do
    f=${f#./}
    base=${f##*/}
    skip=0
    for pat in "${excludes[@]}"; do
      # shellcheck disable=SC2053
      if [[ $base == $pat ]]; then skip=1; break; fi
    done
    [ $skip = 0 ] && printf '%s\0' "$f"
  done | LC_ALL=C sort -z
}

if [ $dry = 1 ]; then
  list_files | tr '\0' '\n'
  exit 0
fi
mkdir -p "$outdir" || exit 1
max=0
for f in "$outdir/$name"-*.tar.gz; do
  [ -e "$f" ] || continue
  n=${f##*/$name-}; n=${n%.tar.gz}
  [[ $n =~ ^[0-9]+$ ]] || continue
  n=$((10#$n))
  [ "$n" -gt "$max" ] && max=$n
done
out="$outdir/$name-$((max + 1)).tar.gz"
list_files | sed -z "s|^|$name/|" | tar -C "$parent" --null -T - -czf "$out" || exit 1
echo "$out"
S
chmod +x /app/bin/archive.sh
