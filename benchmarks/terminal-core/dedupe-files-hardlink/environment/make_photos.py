import os
import random

rng = random.Random(3)
R = "/app/photos"
blobs = {name: bytes(rng.randrange(256) for _ in range(rng.randint(2000, 6000))) for name in "ABCDEFG"}
# same size as A but different content
blobs["A2"] = bytes((b + 1) % 256 for b in blobs["A"])
layout = {
    "2023/beach.jpg": "A", "2023/beach (copy).jpg": "A", "backup/2023/beach.jpg": "A",
    "2023/dog.jpg": "B", "2024/dog-edit.jpg": "A2",
    "2024/mountain.jpg": "C", "inbox/IMG_0001.jpg": "C", "inbox/IMG_0002.jpg": "D",
    "2024/party/cake.jpg": "E", "2024/party/cake 2.jpg": "E", "backup/old/e.jpg": "E", "backup/old/f.jpg": "F",
    "inbox/IMG_0003.jpg": "G", ".thumbs/g.jpg": "G",
}
for rel, key in layout.items():
    p = os.path.join(R, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(blobs[key])
for rel in ("inbox/empty1.jpg", "inbox/empty2.jpg"):
    open(os.path.join(R, rel), "wb").close()
os.symlink("../2023/dog.jpg", os.path.join(R, "inbox/dog-link.jpg"))
# already hard-linked pair: counts as one group member each, nothing to do for it
os.link(os.path.join(R, "backup/old/f.jpg"), os.path.join(R, "backup/old/f-again.jpg"))
