# Files as a lesson on input and output shows them, in the run's working directory: writing and appending
# text, reading it back whole, by lines and line by line, a CSV written with csv.writer and read with
# DictReader, JSON dumped and loaded, pathlib for names and sizes, a missing file caught, and os.listdir.
import csv
import json
import os
from pathlib import Path


def main():
    with open("diary.txt", "w", encoding="utf-8") as handle:
        handle.write("Monday: rain\n")
        handle.write("Tuesday: sun\n")
    with open("diary.txt", "a", encoding="utf-8") as handle:
        print("Wednesday: wind", file=handle)
    with open("diary.txt", encoding="utf-8") as handle:
        whole = handle.read()
    print(repr(whole))
    with open("diary.txt", encoding="utf-8") as handle:
        print(handle.readline().rstrip(), "|", handle.readlines())
    with open("diary.txt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            day, weather = line.rstrip("\n").split(": ")
            print(f"  {number}: {day:<10} {weather}")
    rows = [("name", "score"), ("ann", 91), ("bob", 78), ("cid", 85)]
    with open("scores.csv", "w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    with open("scores.csv", newline="") as handle:
        records = list(csv.DictReader(handle))
    print(records, sum(int(r["score"]) for r in records) / len(records))
    data = {"course": "Python 101", "students": [r["name"] for r in records], "passed": True}
    Path("data.json").write_text(json.dumps(data, indent=2))
    loaded = json.loads(Path("data.json").read_text())
    print(loaded == data, loaded["students"])
    folder = Path("reports")
    folder.mkdir(exist_ok=True)
    (folder / "summary.txt").write_text("best: ann\n")
    path = folder / "summary.txt"
    print(path.name, path.stem, path.suffix, path.parent.name, path.exists(), path.stat().st_size)
    try:
        open("missing.txt")
    except FileNotFoundError as error:
        print("FileNotFoundError:", error.strerror, error.filename)
    with open("bytes.bin", "wb") as handle:
        handle.write(bytes(range(5)))
    print(Path("bytes.bin").read_bytes(), sorted(os.listdir(".")), sorted(p.name for p in folder.iterdir()))
    os.remove("bytes.bin")
    print(os.path.exists("bytes.bin"), sorted(os.listdir(".")))
