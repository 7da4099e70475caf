import os
names = ["report.PDF", "photo.jpg", "photo.JPG", "archive.tar.gz", ".bashrc", "Makefile",
         "notes.txt", "todo list.TXT", "data.2024.csv", "script.sh", "README", "image.Jpeg",
         "weird.", "backup.GZ"]
os.makedirs("/app/inbox/keep-me", exist_ok=True)
with open("/app/inbox/keep-me/inner.txt", "w") as f:
    f.write("do not move me\n")
for n in names:
    with open(os.path.join("/app/inbox", n), "w") as f:
        f.write(f"content of {n}\n")
