#!/usr/bin/env python3
"""Times commands in alternation: round after round, each command once, so that a machine that slows down or speeds
up in the middle of a benchmark (other tenants of a virtual machine's host) slows every command alike, rather than
whichever one had its runs then. A ratio of two commands' medians then compares them under the same conditions.

Usage: alternate.py --runs N [--warmup 1] [--json FILE] NAME=PREPARE::COMMAND ...

PREPARE runs (through the shell) before each run of COMMAND and is not timed; COMMAND is timed from start to exit
and must exit 0. Prints one line per command, "NAME MEDIAN" (seconds, 3 decimals); the JSON file gets every time.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time


def run(command, timed):
    start = time.perf_counter()
    done = subprocess.run(command, shell=True, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"alternate.py: exit {done.returncode}: {command}")
    return elapsed if timed else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--json")
    parser.add_argument("commands", nargs="+")
    args = parser.parse_args()
    commands = []
    for spec in args.commands:
        name, rest = spec.split("=", 1)
        prepare, command = rest.split("::", 1) if "::" in rest else ("", rest)
        commands.append((name, prepare, command))
    times = {name: [] for name, _, _ in commands}
    for round_number in range(args.warmup + args.runs):
        for name, prepare, command in commands:
            if prepare:
                run(prepare, timed=False)
            elapsed = run(command, timed=True)
            if round_number >= args.warmup:
                times[name].append(elapsed)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"runs": args.runs, "warmup": args.warmup, "times": times}, out, indent=1)
    for name, _, _ in commands:
        print(f"{name} {statistics.median(times[name]):.3f}")


if __name__ == "__main__":
    main()
