# decimal and fractions: 0.1 + 0.2 as floats and as Decimals, Decimal from a float showing its exact value,
# localcontext changing precision and rounding for a block only, quantize for money (ROUND_HALF_UP against
# banker's rounding), Fraction arithmetic, limit_denominator, and a harmonic sum kept exact.
import decimal
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction


def main():
    print(0.1 + 0.2, 0.1 + 0.2 == 0.3, Decimal("0.1") + Decimal("0.2") == Decimal("0.3"))
    print(Decimal(0.1))
    print(Decimal(1) / Decimal(7), decimal.getcontext().prec)
    with localcontext() as context:
        context.prec = 50
        print(Decimal(1) / Decimal(7))
        print(Decimal(2).sqrt())
    with localcontext(prec=5, rounding=decimal.ROUND_DOWN):
        print(Decimal("3.14159265") * 1, Decimal(2) / 3)
    print("back to", decimal.getcontext().prec, "digits:", Decimal(2) / 3)
    cents = Decimal("0.01")
    for price in ["2.675", "2.665", "1.005", "-0.125"]:
        value = Decimal(price)
        print(price, value.quantize(cents, rounding=ROUND_HALF_UP), value.quantize(cents, rounding=ROUND_HALF_EVEN),
              round(float(price), 2))
    total = sum(Decimal("19.99") for _ in range(3)) * Decimal("1.0825")
    print("total with tax:", total, total.quantize(cents))
    try:
        with localcontext() as context:
            context.traps[decimal.DivisionByZero] = True
            Decimal(1) / 0
    except decimal.DivisionByZero as error:
        print("trapped:", type(error).__name__)
    half, third = Fraction(1, 2), Fraction(1, 3)
    print(half + third, half * third, half / third, half - third, half ** 2, -third)
    print(Fraction("3.1415"), Fraction(0.75), Fraction(0.1), Fraction(0.1).limit_denominator(100))
    print(Fraction(355, 113).limit_denominator(10), float(Fraction(355, 113)), Fraction(6, 8).denominator)
    harmonic = sum(Fraction(1, n) for n in range(1, 21))
    print("H(20) =", harmonic, "~", float(harmonic))
    print(Fraction(1, 3) == 1 / 3, Fraction(1, 2) == 0.5, Fraction(3, 4) < Decimal("0.8"))
    print(sorted([Fraction(2, 3), Fraction(3, 5), Fraction(5, 8)]), Decimal("1.30").normalize(), Decimal("1E+2") + 0)
