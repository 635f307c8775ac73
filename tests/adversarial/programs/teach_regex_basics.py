# Regular expressions in a text-processing lesson: search against match against fullmatch, groups and named
# groups, findall and finditer with positions, sub with a string and with a function, split on a pattern,
# flags (IGNORECASE, MULTILINE, VERBOSE), greedy against lazy, and a compiled pattern reused.
import re

LOG = """2024-01-05 ERROR disk full on /dev/sda1
2024-01-05 INFO backup started
2024-01-06 WARNING cpu at 91%
2024-01-07 error network down"""

PHONE = re.compile(r"""
    \(?(?P<area>\d{3})\)?   # area code, maybe in parentheses
    [\s.-]?
    (?P<exchange>\d{3})
    [\s.-]?
    (?P<line>\d{4})
""", re.VERBOSE)


def main():
    print(re.search(r"\d+", "abc 123 def 45").group(), re.match(r"\d+", "abc 123"), re.fullmatch(r"\w+", "abc_1"))
    m = re.search(r"(\d{4})-(\d{2})-(\d{2})", LOG)
    print(m.group(0), m.groups(), m.group(2), m.span(), m.start(3))
    for line in LOG.splitlines():
        entry = re.match(r"(?P<date>\S+) (?P<level>[A-Za-z]+) (?P<message>.*)", line)
        print(entry.group("level").upper(), entry["date"], entry.groupdict()["message"])
    print(re.findall(r"(?im)^\S+ (error|warning)", LOG), re.findall(r"\d+", "a1b22c333"))
    print([(m.group(), m.start()) for m in re.finditer(r"\b\w{4}\b", "this is some text with four")])
    print(re.sub(r"\s+", " ", "too    many   spaces\there"), re.sub(r"(\w+)@(\w+)", r"\2 at \1", "ann@home bob@work"))
    print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "3 apples and 10 pears"))
    print(re.split(r"[,;]\s*", "a, b;c,   d"), re.split(r"(\d)", "a1b2c"), "a.b".split("."), re.escape("1+1=2?"))
    print(re.findall(r"<.+>", "<a><b>"), re.findall(r"<.+?>", "<a><b>"), re.findall(r"a{2,3}", "aaaaaaa"))
    for text in ["(555) 123-4567", "555.123.4567", "5551234567", "55-1234"]:
        found = PHONE.search(text)
        print(text, "->", found.groupdict() if found else None)
    print(PHONE.pattern.count("\n"), bool(re.search("CPU", LOG, re.IGNORECASE)), re.compile("x").flags & re.UNICODE > 0)
    try:
        re.compile("(unclosed")
    except re.error as error:
        print("re.error:", error)
