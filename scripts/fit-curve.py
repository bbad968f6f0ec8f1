#!/usr/bin/env python3
"""Fit analyze's curve, apart from the Go code, to PGN files of match --pgn.

E(s) = 1/(1+exp(-K*(s-C))), s the mover's score in hundredths of a piece,
fitted by maximum likelihood (Newton's method on the logistic regression
a*s+b, K = a, C = -b/a) to every scored move of the finished games: the
score the engine that moved gave the position, and what the mover scored in
the end (1, 0.5, 0). Each game weighs one, shared by its scored positions,
as translate/analysis.Samples weighs them. Forced results (W3@3), moves
without a score and unfinished games are left out.

    scripts/fit-curve.py selfplay.pgn...

translate/analysis's TestFitAgreesWithTheScript checks its fit of
testdata/selfplay-sample.pgn against this script's figures.
"""
import math
import re
import sys

RESULT = {"WhiteWins": 1.0, "BlackWins": 0.0, "Draw": 0.5}


def games(text):
    """Yields (result, [(ply, comment)]) for each game of a match --pgn file."""
    for chunk in re.split(r"\n(?=\[GameType )", text):
        m = re.search(r'^\[Result "(\w+)"\]$', chunk, re.M)
        plies = re.findall(r"^(\d+)\. [^\n]*\n(?:\{([^}]*)\})?", chunk, re.M)
        yield (m.group(1) if m else ""), [(int(n), c) for n, c in plies]


def samples(text):
    out = []
    for result, plies in games(text):
        if result not in RESULT:
            continue
        white = RESULT[result]
        game = []
        for ply, comment in plies:
            score, at, _ = comment.partition("@")
            if not at:
                continue
            try:
                pieces = float(score)
            except ValueError:
                continue  # W3, L2: forced results
            game.append((round(pieces * 100), white if ply % 2 == 1 else 1 - white))
        out += [(x, y, 1 / len(game)) for x, y in game]
    return out


def fit(data):
    a = b = 0.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, y, w in data:
            p = 1 / (1 + math.exp(-(a * x + b)))
            ga += w * (y - p) * x
            gb += w * (y - p)
            v = w * p * (1 - p)
            haa += v * x * x
            hab += v * x
            hbb += v
        det = haa * hbb - hab * hab
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) <= 1e-12 * abs(a) and abs(db) <= 1e-12 * max(1, abs(b)):
            break
    return a, -b / a


def main():
    data = []
    for name in sys.argv[1:]:
        with open(name, encoding="utf-8") as f:
            data += samples(f.read())
    k, c = fit(data)
    print(f"{len(data)} positions of weight {sum(w for _, _, w in data):.0f}: K {k:.9f}, C {c:.9f}")


if __name__ == "__main__":
    main()
