"""Helpers for the browser tests and the screenshot script: building sites with the real `glossary`
binary, serving them on 127.0.0.1, the fake dictionary API, and headless Chromium.

Nothing here reaches beyond this machine: sites and the fake API listen on loopback, and Chromium
blocks the dictionary API's real host (audio files point there) so a test can never leak a request.
"""

import io
import json
import math
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import wave
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("GLOSSARY_SHARED", REPO.parent / "shared"))
FIXTURES = SHARED / "fixtures" / "dictionaryapi"
FAKE_API = SHARED / "bench" / "fake-dictionary-api"
GLOSSARY = Path(os.environ.get("GLOSSARY_BIN", REPO / ".build" / "debug" / "glossary"))

os.environ.setdefault("SE_OFFLINE", "true")
os.environ.setdefault("SE_AVOID_STATS", "true")

# Hosts the example data points at (audio recordings, the real API). Chromium refuses them.
BLOCKED_HOSTS = ["*://api.dictionaryapi.dev/*", "*://*.wikimedia.org/*", "*://*.wiktionary.org/*"]

# Installed in every page before its own scripts: collects the page's Content-Security-Policy violations
# (read them with csp_violations) and logs each to the console, where the browser fixture finds them.
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  var report = { directive: event.effectiveDirective, blocked: event.blockedURI, source: event.sourceFile,
                 line: event.lineNumber, sample: event.sample, page: location.href };
  window.__cspViolations.push(report);
  console.error("CSP violation: " + JSON.stringify(report));
});
"""


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def closed_port():
    """A loopback port nothing listens on: connecting to it fails at once (a network error)."""
    return free_port()


def tone_wav(seconds=0.3, rate=8000):
    """A short sine tone: a recording that really loads and plays."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        frames = b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / rate))) for i in range(int(seconds * rate)))
        out.writeframes(frames)
    return buffer.getvalue()


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".json": "application/json", ".svg": "image/svg+xml",
                      ".js": "text/javascript", ".css": "text/css", ".wav": "audio/wav"}

    def log_message(self, *args):
        pass

    cors = False

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        if self.cors:
            self.send_header("Access-Control-Allow-Origin", "*")
            # Lets another origin's page read the sizes in its resource log (they read 0 otherwise).
            self.send_header("Timing-Allow-Origin", "*")
        super().end_headers()

    def do_GET(self):
        if self.path.split("?")[0] == "/__test__/tone.wav":
            body = tone_wav()
            self.send_response(200)
            self.send_header("Content-Type", "audio/wav")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


class SiteServer:
    """Serves a built site folder at http://127.0.0.1:PORT/ from a background thread (with `cors`, readable from
    any origin)."""

    def __init__(self, directory, cors=False):
        self.directory = Path(directory)
        handler = type("_CORSHandler", (_Handler,), {"cors": True}) if cors else _Handler
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(self.directory)))
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d/" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class FakeAPI:
    """shared/bench/fake-dictionary-api serving the recorded responses in shared/fixtures (read in place,
    through symlinks), plus any extra responses a test writes (its own text, never fixture text)."""

    def __init__(self, extra=None, latency_ms=0):
        if not FAKE_API.exists():
            raise RuntimeError("fake dictionary API not found at %s (set GLOSSARY_SHARED)" % FAKE_API)
        self.folder = Path(tempfile.mkdtemp(prefix="glossary-fixtures-"))
        for fixture in FIXTURES.glob("*.json"):
            (self.folder / fixture.name).symlink_to(fixture)
        for word, body in (extra or {}).items():
            (self.folder / (word + ".json")).write_text(json.dumps(body), encoding="utf-8")
        command = ["python3", str(FAKE_API), "--port", "0", "--fixtures", str(self.folder), "--max-seconds", "3600"]
        if latency_ms:
            command += ["--latency-ms", str(latency_ms)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline().strip()
        if not line.isdigit():
            self.close()
            raise RuntimeError("fake dictionary API did not start (printed %r)" % line)
        self.port = int(line)
        self.template = "http://127.0.0.1:%d/api/v2/entries/{lang}/{word}" % self.port

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


def build_site(source, output, *args, env=None):
    """Runs `glossary build` and fails loudly with its diagnostics when it doesn't succeed."""
    if not GLOSSARY.exists():
        raise RuntimeError("glossary binary not found at %s (run `swift build` or set GLOSSARY_BIN)" % GLOSSARY)
    command = [str(GLOSSARY), "build", "--source", str(source), "--output", str(output), "--quiet", *args]
    environment = {**os.environ, **(env or {})}
    environment.pop("GLOSSARY_API_URL", None)
    result = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=300)
    if result.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" % (" ".join(command), result.returncode, result.stdout, result.stderr))
    return Path(output)


AUDIO_SITE = {
    "glossary.yml": "title: Audio test\nbase_url: /\nlanguage: en\ntheme: default\n"
                    "dictionary:\n  cache: .glossary/cache\n  live_lookup: true\n",
    "content/index.md": "---\ntitle: Pronunciations\n---\n# Pronunciations\n\n"
                        "Say [[hello]] and [[hi]], eat a [[banana]], spell [[charlie]]; [[aaa]] has no recording.\n"
                        "Our own [[widget]] has none either.\n",
    "content/glossary/widget.md": "---\nterm: widget\npart_of_speech: noun\nsynonyms: [hello]\n---\n"
                                 "A small control on a page, written by this test.\n",
}


def build_audio_site(root, api):
    """A small site whose terms come from the recorded API responses (some with audio, some without)."""
    source = Path(root) / "audio-source"
    for name, text in AUDIO_SITE.items():
        path = source / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return build_site(source, Path(root) / "audio-site", "--api-url", api.template)


def chrome(width=1280, height=900, mobile=False, dark=False):
    """Headless Chromium driven by Debian's chromedriver; `dark` emulates prefers-color-scheme before any load."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--autoplay-policy=no-user-gesture-required", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--lang=en-US", "--force-device-scale-factor=1", "--hide-scrollbars",
                     "--window-size=%d,%d" % (max(width, 500), height)):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Chromium leaves its singleton's folder in TMPDIR when chromedriver ends it: each session gets a TMPDIR of its
    # own, removed when the session quits.
    scratch = tempfile.mkdtemp(prefix="glossary-chromium-")
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"), env={**os.environ, "TMPDIR": scratch})
    try:
        driver = webdriver.Chrome(service=service, options=options)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    quit_driver = driver.quit

    def quit():
        try:
            quit_driver()
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    driver.quit = quit
    driver.set_script_timeout(30)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": BLOCKED_HOSTS})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_LISTENER})
    set_viewport(driver, width, height, mobile)
    if dark:
        emulate_color_scheme(driver, "dark")
    return driver


def set_viewport(driver, width, height, mobile=False):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    if mobile:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})


def emulate_color_scheme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def tap(driver, x, y):
    """A finger's tap: touch events, then the pointer, mouse-compatibility and click events the browser derives."""
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def center(driver, element):
    """The middle of an element's first box, in viewport coordinates (after scrolling it into view)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    return driver.execute_script(
        "var r = arguments[0].getClientRects()[0]; return [r.left + r.width / 2, r.top + r.height / 2]", element)


def wait_for(condition, timeout=10, interval=0.05, message="condition"):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
            if last:
                return last
        except Exception as error:  # the page may be mid-navigation
            last = error
        time.sleep(interval)
    raise AssertionError("timed out waiting for %s (last: %r)" % (message, last))


def csp_violations(driver):
    """The Content-Security-Policy violations of the page now open (see CSP_LISTENER)."""
    return driver.execute_script("return window.__cspViolations || []")


def logged_csp_violations(driver):
    """Chromium's console messages about the policy since the last read of the log (this drains it)."""
    return [entry["message"] for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"] or "CSP violation" in entry["message"]]


# Installed before a served page's scripts: records the live-reload connection's events (`events`, as they
# arrive; `handled`, once every listener of the event has run) and whether the page began to unload.
LIVE_RELOAD_PROBE = """
window.__liveReload = { events: [], handled: [], unloading: false };
addEventListener("beforeunload", function () { window.__liveReload.unloading = true; });
var NativeEventSource = window.EventSource;
window.EventSource = function (url, options) {
  var source = new NativeEventSource(url, options);
  ["open", "error", "hello", "build", "failed"].forEach(function (type) {
    source.addEventListener(type, function () {
      window.__liveReload.events.push(type);
      setTimeout(function () { window.__liveReload.handled.push(type); }, 0);
    });
  });
  return source;
};
window.EventSource.prototype = NativeEventSource.prototype;
["CONNECTING", "OPEN", "CLOSED"].forEach(function (name) { window.EventSource[name] = NativeEventSource[name]; });
"""


def live_reload_state(driver):
    """The page's live-reload probe (LIVE_RELOAD_PROBE): {events, handled, unloading}."""
    return driver.execute_script("return window.__liveReload || null")


# Installed before a page's scripts: counts its pending setTimeout timers, so a test can wait until every
# timer the page set (a card's delayed close, say) has fired or been cleared.
TIMER_PROBE = """
(function () {
  var set = window.setTimeout, clear = window.clearTimeout, pending = new Set();
  window.setTimeout = function (callback, delay) {
    var rest = Array.prototype.slice.call(arguments, 2);
    var id = set(function () { pending.delete(id); callback.apply(this, rest); }, delay);
    pending.add(id);
    return id;
  };
  window.clearTimeout = function (id) { pending.delete(id); clear(id); };
  window.__pendingTimers = function () { return pending.size; };
})();
"""


def wait_for_timers(driver, timeout=10):
    """Waits until the page (with TIMER_PROBE installed) has no timer pending."""
    wait_for(lambda: driver.execute_script("return window.__pendingTimers()") == 0, timeout=timeout, message="the page's timers")


def copy_example(destination):
    """A copy of the repository's example site (config, content, theme, cache) to edit."""
    destination = Path(destination)
    destination.mkdir(parents=True)
    for name in ("glossary.yml", "content", "themes", ".glossary"):
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, destination / name)
        elif path.exists():
            shutil.copy(path, destination / name)
    return destination


class Serve:
    """`glossary serve --offline` in the background on `source`, its stderr collected."""

    def __init__(self, source, port=0):
        self.process = subprocess.Popen(
            [str(GLOSSARY), "serve", "--offline", "--port", str(port)], cwd=source,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.errors = []
        threading.Thread(target=lambda: self.errors.extend(self.process.stderr), daemon=True).start()
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, "no URL in %r; stderr: %s" % (line, "".join(self.errors))
        self.port = int(match.group(1))
        self.url = match.group(0)

    def builds(self):
        return sum(1 for line in self.errors if line.startswith(("Rebuilt", "Build failed")))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            assert self.process.wait(timeout=10) == 0
