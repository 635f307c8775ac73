# Randomness made repeatable with seeds, as a simulation lesson does: a random.Random(42) of its own (the
# module's shared generator is left alone), dice rolls counted, shuffle, sample, choice and choices with
# weights, a Monte Carlo estimate of pi, and the same seed giving the same sequence twice.
import random
from collections import Counter


def roll_dice(rng, n):
    return [rng.randint(1, 6) for _ in range(n)]


def main():
    rng = random.Random(42)
    rolls = roll_dice(rng, 60)
    counts = Counter(rolls)
    print(rolls[:10], sorted(counts.items()), sum(rolls))
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in "A23456789TJQK"]
    rng.shuffle(deck)
    print(deck[:5], len(deck))
    print(rng.sample(range(100), 5), rng.choice(["rock", "paper", "scissors"]))
    print(rng.choices(["win", "lose"], weights=[1, 3], k=8), round(rng.random(), 6), round(rng.uniform(1, 2), 6))
    inside = 0
    trials = 2000
    for _ in range(trials):
        x, y = rng.random(), rng.random()
        inside += x * x + y * y <= 1
    print("pi is about", 4 * inside / trials)
    again, other = random.Random(7), random.Random(7)
    print([again.randrange(10) for _ in range(8)] == [other.randrange(10) for _ in range(8)])
    print(round(rng.gauss(0, 1), 6), rng.getrandbits(16))
