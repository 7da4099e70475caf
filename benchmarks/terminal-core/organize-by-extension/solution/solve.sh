#!/bin/bash
cd /app/inbox
shopt -s dotglob nullglob
for f in *; do
  [ -f "$f" ] && [ ! -L "$f" ] || continue
  base="${f#.}"               # ignore a leading dot (hidden files)
  if [[ "$base" == *.* && "${f##*.}" != "" ]]; then
    ext="${f##*.}"; ext="${ext,,}"
  else
    ext=noext
  fi
  mkdir -p "/app/sorted/$ext"
  mv -- "$f" "/app/sorted/$ext/$f"
done
