# String methods a beginners' course goes through: case changes, strip/split/join/partition, find against
# index, replace, count, startswith with a tuple, justification and zfill, character tests, translate,
# slicing and stepping, palindromes, a Caesar cipher and counting vowels.
def caesar(text, shift):
    out = []
    for ch in text:
        if ch.isalpha():
            base = ord("A") if ch.isupper() else ord("a")
            out.append(chr((ord(ch) - base + shift) % 26 + base))
        else:
            out.append(ch)
    return "".join(out)


def is_palindrome(text):
    cleaned = "".join(ch.lower() for ch in text if ch.isalnum())
    return cleaned == cleaned[::-1]


def main():
    s = "  Hello, World! Hello, Python.  "
    print(repr(s.strip()), repr(s.lstrip()), repr(s.rstrip(" .")))
    t = s.strip()
    print(t.upper(), t.lower(), t.title(), t.swapcase(), "straße".casefold(), "ǅ".lower())
    print(t.split(), t.split(", "), t.split(",", 1), "a,b,,c".split(","), "line1\nline2\r\n".splitlines())
    print(t.partition(", "), t.rpartition(", "), "-".join(["x", "y", "z"]), " ".join("abc"))
    print(t.find("Hello"), t.rfind("Hello"), t.find("Java"), t.index("World"), t.count("l"), t.count("Hello"))
    try:
        t.index("Java")
    except ValueError as error:
        print("index:", error)
    print(t.replace("Hello", "Bye"), t.replace("Hello", "Bye", 1))
    print(t.startswith(("Hi", "Hello")), t.endswith("."), "42".isdigit(), "4.2".isdigit(), "abc".isalpha(),
          "Ab1".isalnum(), "   ".isspace(), "Title Case".istitle(), "x".isidentifier(), "½".isnumeric())
    print(repr("cat".center(9, "*")), repr("cat".ljust(6, ".")), repr("cat".rjust(6)), "42".zfill(5), "-42".zfill(5))
    table = str.maketrans({"a": "4", "e": "3", "o": "0"}, )
    print("hello world, lovely people".translate(table), "hello".translate(str.maketrans("", "", "l")))
    word = "programming"
    print(word[0], word[-1], word[3:7], word[:3], word[::2], word[::-1], word[-3:], word[100:])
    print(is_palindrome("A man, a plan, a canal: Panama!"), is_palindrome("Hello"))
    secret = caesar("Attack at Dawn!", 3)
    print(secret, caesar(secret, -3))
    print(sum(1 for ch in t.lower() if ch in "aeiou"), sorted(set(t.lower()) & set("aeiou")))
    print("tab\tand\\backslash", r"raw\n", len("é"), "é".encode(), "naïve".encode("utf-8"), b"caf\xc3\xa9".decode())
    print("%d items" % 3, "Spam " * 3, "abc" < "abd", "Z" < "a", ord("A"), chr(9731), "x".join("123"))
    print("{:>8}|{:<8}|{:^8}".format("r", "l", "c"), "a-b_c d".replace("-", " ").replace("_", " ").split())
    print(" ".join(w.capitalize() for w in "the lord of the rings".split()), "CamelCaseName".removeprefix("Camel"),
          "file.tar.gz".removesuffix(".gz"), "file.tar.gz".rsplit(".", 1))
