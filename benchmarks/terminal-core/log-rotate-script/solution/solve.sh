#!/bin/bash
cat > /app/rotate.sh <<'S'
#!/bin/bash
usage() { echo "usage: rotate.sh [-k KEEP] [-s MINSIZE] LOGFILE" >&2; exit 2; }
keep=5
minsize=1
while getopts ":k:s:" opt; do
  case $opt in
    k) [[ $OPTARG =~ ^[0-9]+$ ]] && [ "$OPTARG" -ge 1 ] || usage; keep=$((10#$OPTARG)) ;;
    s) [[ $OPTARG =~ ^[0-9]+$ ]] || usage; minsize=$((10#$OPTARG)) ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
log=$1
if [ ! -f "$log" ] || [ -L "$log" ]; then
  echo "rotate.sh: $log: no such regular file" >&2
  exit 1
fi
size=$(stat -c %s "$log")
[ "$size" -lt "$minsize" ] && exit 0
# shift existing rotated files, highest first
nums=$(for f in "$log".*.gz; do
  [ -e "$f" ] || continue
  n=${f#"$log".}; n=${n%.gz}
  [[ $n =~ ^[0-9]+$ ]] && echo "$n"
done | sort -rn)
for n in $nums; do
  mv -f "$log.$n.gz" "$log.$((n + 1)).gz"
done
gzip -c "$log" > "$log.1.gz"
truncate -s 0 "$log"
for f in "$log".*.gz; do
  [ -e "$f" ] || continue
  n=${f#"$log".}; n=${n%.gz}
  [[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt "$keep" ] && rm -f "$f"
done
exit 0
S
chmod +x /app/rotate.sh
