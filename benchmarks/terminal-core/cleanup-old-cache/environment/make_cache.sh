#!/bin/bash
set -e
C=/app/var/cache
mk() { mkdir -p "$(dirname "$C/$1")"; echo "data $1" > "$C/$1"; touch -d "$2" "$C/$1"; }
mk thumbs/a1.jpg "2023-03-01 10:00:00 UTC"
mk thumbs/a2.jpg "2024-02-10 10:00:00 UTC"
mk thumbs/old/x.jpg "2022-11-11 11:11:11 UTC"
mk thumbs/old/y.jpg "2023-12-31 23:59:59 UTC"
mk thumbs/old/.keep "2020-01-01 00:00:00 UTC"
mk http/resp-001.bin "2023-06-01 00:00:00 UTC"
mk http/resp-002.bin "2024-01-01 00:00:00 UTC"
mk http/resp-003.bin "2025-05-05 05:05:05 UTC"
mk "http/with space.bin" "2021-01-01 00:00:00 UTC"
mk pinned/model.bin "2019-01-01 00:00:00 UTC"
mk pinned/sub/vocab.txt "2019-01-01 00:00:00 UTC"
mk sessions/2023/s1 "2023-01-02 00:00:00 UTC"
mk sessions/2023/s2 "2023-01-03 00:00:00 UTC"
mk index.db "2023-09-09 09:09:09 UTC"
mk .keep "2018-01-01 00:00:00 UTC"
touch -d "2020-01-01 UTC" $C/sessions/2023 $C/sessions $C/thumbs/old $C/http
