#!/usr/bin/env python3
"""A random agent for Entente over its JSON Lines protocol (docs/research.md).

Runs `entente agent` as a child process, plays one game to 1905 with random legal orders
for every power, prints each phase and the supply-centre counts, and saves the game.
Usage: python3 examples/random_agent.py [path/to/bin/entente]
"""
import json
import random
import subprocess
import sys


class Entente:
    def __init__(self, command):
        self.proc = subprocess.Popen(
            [command, "agent"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, **request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if not answer["ok"]:
            raise RuntimeError(answer["error"])
        return answer

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    entente = Entente(sys.argv[1] if len(sys.argv) > 1 else "bin/entente")
    rng = random.Random(1)
    game = entente.ask(op="new", variant="classical", rules="datc")
    board = entente.ask(op="board", game=game["game"])
    powers, provinces = board["powers"], board["provinces"]
    phase, winner = game["phase"], None
    while winner is None and int(phase[1:5]) <= 1905:
        orders = []
        for choice in entente.ask(op="legal", game=game["game"])["choices"]:
            # A unit: one of its orders. A power's adjustments: `count` distinct ones
            # (waives may repeat).
            picks = rng.sample(choice["orders"], min(choice["count"], len(choice["orders"])))
            orders.extend(picks)
        played = entente.ask(op="step", game=game["game"], orders=orders)
        failed = sum(1 for r in played["results"] if r["result"] == "fails")
        centres = entente.ask(op="state", game=game["game"])["centerCounts"]
        print(played["phase"], f"{failed} failed;",
              " ".join(f"{powers[i]}:{n}" for i, n in enumerate(centres)))
        phase, winner = played["next"], played["winner"]
    saved = entente.ask(op="save", game=game["game"])["save"]
    again = entente.ask(op="load", save=saved)
    print("saved and loaded at", again["phase"], "- Paris is province", provinces.index("par"))
    entente.close()


if __name__ == "__main__":
    main()
