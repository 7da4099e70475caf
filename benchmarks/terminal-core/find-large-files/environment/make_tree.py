import os
files = {
    "logs/app.log": 900_000,
    "logs/app.log.1": 524_288,          # exactly the limit: not larger
    "logs/debug.log": 12_000,
    "media/intro video.mp4": 2_500_000,
    "media/thumbs/a.png": 40_960,
    "media/thumbs/b.png": 524_289,
    "backups/db-2024-01-01.sql": 1_048_576,
    "backups/db-2024-02-01.sql": 1_048_576,
    "backups/old/notes.txt": 100,
    ".cache/blob.bin": 3_000_000,
    "tmp/empty": 0,
    "docs/manual.pdf": 524_000,
}
for rel, size in files.items():
    p = os.path.join("/app/storage", rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        chunk = (rel.encode() * 64)[:4096] or b"x"
        left = size
        while left > 0:
            f.write(chunk[:left]); left -= len(chunk[:left])
os.symlink("/app/storage/.cache/blob.bin", "/app/storage/media/latest.bin")
os.symlink("../backups", "/app/storage/docs/backups-link")
