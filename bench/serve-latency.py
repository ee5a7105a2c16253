#!/usr/bin/env python3
"""Edit-to-reload latency of a running `glossary serve`: writes a page N times and measures, for each
write, the time from just before the write until the server's `build` event arrives on
/_glossary/events (what makes the browser reload). Prints one JSON object: the times in ms and their
min/median/p90/max. Restores the pages afterwards.

Usage: bench/serve-latency.py --port PORT --file SITE/content/page.md [--file …] [--edits 20] [--pause 0.3] [--alternate]
Each write appends a numbered sentence to the page's text as it was (the pages take turns). With --alternate,
every second write to a page puts it back as it was instead, so half the edits add words and half take them out.
"""
import argparse, json, socket, statistics, sys, time

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--file", required=True, action="append")
parser.add_argument("--edits", type=int, default=20)
parser.add_argument("--pause", type=float, default=0.3, help="seconds between edits, so each is its own build")
parser.add_argument("--timeout", type=float, default=60)
parser.add_argument("--alternate", action="store_true", help="every second write to a page puts it back as it was")
args = parser.parse_args()


class Events:
    """The event stream over HTTP/1.0 (no chunking: the body is the stream)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /_glossary/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        self.file = self.sock.makefile("rb")
        while self.file.readline() not in (b"\r\n", b"\n", b""):
            pass  # response headers

    def next(self, name, timeout):
        self.sock.settimeout(timeout)
        event, data = None, []
        while True:
            line = self.file.readline()
            if not line:
                raise EOFError("event stream ended")
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "":
                if event == name:
                    return json.loads("\n".join(data))
                event, data = None, []


events = Events(args.port)
events.next("hello", args.timeout)
originals = {}
for name in args.file:
    with open(name, encoding="utf-8") as handle:
        originals[name] = handle.read()
times = []
current = dict(originals)
try:
    for index in range(args.edits):
        time.sleep(args.pause)
        name = args.file[index % len(args.file)]
        text = originals[name] + "\nEdit %d of the benchmark: a sentence more.\n" % index
        if args.alternate and (index // len(args.file)) % 2 == 1:
            text = originals[name]
        start = time.monotonic()
        with open(name, "w", encoding="utf-8") as handle:
            handle.write(text)
        current[name] = text
        build = events.next("build", args.timeout)
        times.append((time.monotonic() - start) * 1000)
        if not build["all"] and not build["changed"]:
            print("warning: edit %d changed no file" % index, file=sys.stderr)
finally:
    for name, original in originals.items():
        if current[name] == original:
            continue
        time.sleep(args.pause)
        with open(name, "w", encoding="utf-8") as handle:
            handle.write(original)
        try:
            events.next("build", args.timeout)
        except Exception:
            pass

ordered = sorted(times)
print(json.dumps({
    "edits": len(times), "ms": [round(t, 1) for t in times],
    "min": round(ordered[0], 1), "median": round(statistics.median(ordered), 1),
    "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 1), "max": round(ordered[-1], 1),
}))
