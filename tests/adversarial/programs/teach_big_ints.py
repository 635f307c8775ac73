# Arbitrary-precision integers: factorial(200) and its trailing zeros, 2**10000's digit count (by str and by
# math), digit sums, pow with a modulus and a modular inverse, bit_length, comb, gcd, integer square roots,
# and the int-to-str digit limit met and caught (the limit itself is left alone).
import math
import sys


def digit_sum(n):
    return sum(int(d) for d in str(n))


def main():
    f = math.factorial(200)
    text = str(f)
    print("200! has", len(text), "digits, starts", text[:20], "ends", text[-55:])
    print("trailing zeros:", len(text) - len(text.rstrip("0")), sum(200 // 5 ** k for k in range(1, 4)))
    big = 2 ** 10000
    print("2**10000 has", len(str(big)), "digits;", math.floor(10000 * math.log10(2)) + 1, "by logarithms")
    print("digit sum:", digit_sum(big), "bit_length:", big.bit_length(), "last digits:", big % 10 ** 12)
    print(pow(3, 10 ** 18, 1_000_000_007), pow(17, -1, 3120), (17 * pow(17, -1, 3120)) % 3120)
    print(math.comb(100, 50), math.gcd(f, 2 ** 300) == 2 ** 197, math.isqrt(10 ** 40 + 12345))
    mersenne = 2 ** 127 - 1
    print(mersenne, hex(mersenne)[:10], -mersenne // 10 ** 30, divmod(mersenne, 10 ** 20))
    print(int("1" * 50) * 9 + 9 == 10 ** 50 + 8, int("ff" * 20, 16), (10 ** 30).to_bytes(13, "big").hex())
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    huge = 10 ** 5000
    try:
        print("converted", len(str(huge)), "digits (no limit here)")
    except ValueError as error:
        print("refused:", str(error).split(";")[0], "- limit", limit)
    print("but hex works:", len(hex(huge)), "and bit_length:", huge.bit_length())
