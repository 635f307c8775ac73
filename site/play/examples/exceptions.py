def parse_age(text):
    age = int(text)
    if age < 0:
        raise ValueError("an age is not negative")
    return age


for text in ["42", "-1", "old"]:
    try:
        print(parse_age(text))
    except ValueError as error:
        print("refused:", error)
    finally:
        print("checked", text)
