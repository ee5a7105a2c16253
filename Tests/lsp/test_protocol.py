"""The base protocol by hand, over the server's real stdin and stdout: what a well-behaved client never sends."""

import json
import subprocess

from conftest import BIN, INDEX_TEXT


class RawClient:
    """Writes framed messages (or any bytes) to `glossary lsp` and reads framed messages back."""

    def __init__(self, cwd):
        self.process = subprocess.Popen([BIN, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd)

    def write(self, *messages):
        data = b""
        for message in messages:
            body = message if isinstance(message, bytes) else json.dumps(message).encode()
            data += b"Content-Length: %d\r\n\r\n" % len(body) + body
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read(self):
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = self.process.stdout.read(1)
            assert byte, f"stdout ended inside a header: {header!r}"
            header += byte
        lines = header.decode("ascii").strip().split("\r\n")
        assert len(lines) == 1 and lines[0].startswith("Content-Length: "), header
        return json.loads(self.process.stdout.read(int(lines[0].split(": ")[1])))

    def read_response(self, id):
        """The response to `id`, skipping notifications."""
        while True:
            message = self.read()
            if message.get("id") == id and "method" not in message:
                return message

    def initialize(self, root):
        self.write({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}, "rootUri": root.as_uri()}})
        assert "capabilities" in self.read_response(0)["result"]
        self.write({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def close(self):
        self.process.stdin.close()
        return self.process.wait()


def request(id, method, params):
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": params}


def test_malformed_messages_get_json_rpc_errors_and_the_server_goes_on(site):
    client = RawClient(site)
    client.initialize(site)
    client.write(b"{not json", b"[1, 2]", {"jsonrpc": "2.0", "id": 5, "params": {}}, {"jsonrpc": "1.0", "id": 6, "method": "shutdown"})
    assert client.read() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error: expected a string key at byte 1"}}
    assert client.read() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "A message must be a JSON object"}}
    assert client.read() == {"jsonrpc": "2.0", "id": 5, "error": {"code": -32600, "message": "A request must name its method"}}
    assert client.read() == {"jsonrpc": "2.0", "id": 6, "error": {"code": -32600, "message": "Not a JSON-RPC 2.0 message"}}
    client.write(request(7, "workspace/symbol", {"query": "mouse"}))
    assert [symbol["name"] for symbol in client.read_response(7)["result"]] == ["mouse"]
    assert client.close() == 1


def test_unknown_methods_and_bad_parameters_get_errors(site):
    client = RawClient(site)
    client.write(request(1, "textDocument/hover", {}))
    assert client.read_response(1)["error"] == {"code": -32002, "message": "The server is not initialized"}
    client.initialize(site)
    client.write(request(2, "textDocument/unheardOf", {}))
    assert client.read_response(2)["error"] == {"code": -32601, "message": "Unknown method 'textDocument/unheardOf'"}
    index = (site / "content/index.md").as_uri()
    client.write(request(3, "textDocument/hover", {"textDocument": {"uri": index}}))
    assert client.read_response(3)["error"] == {"code": -32602, "message": "position must have a line and a character"}
    client.write(request(4, "textDocument/hover", {"textDocument": {"uri": 42}, "position": {"line": 0, "character": 0}}))
    assert client.read_response(4)["error"] == {"code": -32602, "message": "textDocument.uri must be a file URI"}
    client.write(request(5, "textDocument/rename", {"textDocument": {"uri": index}, "position": {"line": 6, "character": 35}}))
    assert client.read_response(5)["error"] == {"code": -32602, "message": "rename takes a newName"}
    client.write(request(6, "shutdown", None))
    assert client.read_response(6)["result"] is None
    client.write({"jsonrpc": "2.0", "method": "exit"})
    assert client.process.wait() == 0


def test_a_cancelled_request_is_answered_as_cancelled(site):
    client = RawClient(site)
    client.initialize(site)
    # The cancellation is read before the request it names is handled: the request is not run.
    client.write({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 9}}, request(9, "workspace/symbol", {"query": ""}))
    assert client.read_response(9)["error"] == {"code": -32800, "message": "Cancelled"}
    client.write(request(10, "workspace/symbol", {"query": "mouse"}))
    assert [symbol["name"] for symbol in client.read_response(10)["result"]] == ["mouse"]
    assert client.close() == 1


def test_after_shutdown_only_exit_and_initialize_comes_once(site):
    client = RawClient(site)
    client.initialize(site)
    client.write(request(1, "initialize", {"capabilities": {}}))
    assert client.read_response(1)["error"] == {"code": -32600, "message": "The server is initialized already"}
    client.write(request(2, "shutdown", None))
    assert client.read_response(2)["result"] is None
    client.write(request(3, "workspace/symbol", {"query": "mouse"}))
    assert client.read_response(3)["error"] == {"code": -32600, "message": "The server is shut down; only 'exit' is expected"}
    client.write({"jsonrpc": "2.0", "method": "exit"})
    assert client.process.wait(timeout=30) == 0


def test_stdout_holds_nothing_but_protocol_messages_and_the_server_exits_when_stdin_closes(site):
    client = RawClient(site)
    client.initialize(site)
    client.write(
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": (site / "content/index.md").as_uri(), "languageId": "markdown", "version": 1, "text": INDEX_TEXT}}},
        request(1, "shutdown", None),
    )
    client.read_response(1)
    assert client.close() == 0
    # Whatever followed is whole messages, nothing else.
    rest = client.process.stdout.read()
    while rest:
        header, _, rest = rest.partition(b"\r\n\r\n")
        assert header.startswith(b"Content-Length: "), header
        length = int(header.split(b": ")[1])
        json.loads(rest[:length])
        rest = rest[length:]


def test_a_50_mb_document_leaves_the_server_answering(site):
    client = RawClient(site)
    client.initialize(site)
    paragraph = "Some text with a [[keyboard]] and a [[keybord]] in it, and more words after them.\n\n"
    big = "# Big\n\n" + paragraph * (50 * 1024 * 1024 // len(paragraph))
    big_uri = (site / "content/big.md").as_uri()
    client.write({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": big_uri, "languageId": "markdown", "version": 1, "text": big}}})
    # While the big page is checked: a hover in it, and a request about another page, are answered.
    client.write(request(1, "textDocument/hover", {"textDocument": {"uri": big_uri}, "position": {"line": 2, "character": 20}}))
    assert client.read_response(1)["result"]["range"] == {"start": {"line": 2, "character": 17}, "end": {"line": 2, "character": 29}}
    client.write(request(2, "textDocument/hover", {"textDocument": {"uri": big_uri}, "position": {"line": 2, "character": 2}}))
    assert client.read_response(2)["result"] is None
    # Typing in it: each edit is applied, and the server goes on answering.
    for version in range(2, 5):
        edit = {"range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}}, "text": "x"}
        client.write({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": big_uri, "version": version}, "contentChanges": [edit]}})
    client.write(request(3, "workspace/symbol", {"query": "mouse"}))
    assert [symbol["name"] for symbol in client.read_response(3)["result"]] == ["mouse"]
    client.write(request(4, "textDocument/hover", {"textDocument": {"uri": big_uri}, "position": {"line": 2, "character": 23}}))
    assert client.read_response(4)["result"]["range"] == {"start": {"line": 2, "character": 20}, "end": {"line": 2, "character": 32}}
    assert client.close() == 1


def test_each_workspace_folder_has_its_site(site, tmp_path):
    from conftest import write_site

    other = write_site(tmp_path / "other", {"glossary.yml": "title: Other\n", "content/index.md": "# Other\n\nAbout [[zorblat]].\n"})
    client = RawClient(site)
    client.write(request(0, "initialize", {
        "capabilities": {},
        "workspaceFolders": [{"uri": site.as_uri(), "name": "site"}, {"uri": (other / "content").as_uri(), "name": "other's content"}],
    }))
    client.read_response(0)
    client.write({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    wanted = {(site / "content/index.md").as_uri(): "keybord", (other / "content/index.md").as_uri(): "zorblat"}
    seen = {}
    while len(seen) < len(wanted):
        message = client.read()
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] in wanted:
            seen[message["params"]["uri"]] = [d["message"] for d in message["params"]["diagnostics"]]
    assert seen == {uri: [f"no definition found for '{word}' (offline, and not in the cache)"] for uri, word in wanted.items()}
    # A folder taken out of the workspace takes its site with it.
    client.write(request(1, "workspace/symbol", {"query": "Other"}))
    assert [symbol["name"] for symbol in client.read_response(1)["result"]] == ["Other"]
    client.write({"jsonrpc": "2.0", "method": "workspace/didChangeWorkspaceFolders", "params": {"event": {
        "added": [], "removed": [{"uri": (other / "content").as_uri(), "name": "other's content"}]}}})
    client.write(request(2, "workspace/symbol", {"query": "Other"}))
    assert client.read_response(2)["result"] == []
    assert client.close() == 1


def test_help_says_what_the_server_offers():
    result = subprocess.run([BIN, "lsp", "--help"], capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    assert lines[0] == "USAGE: glossary lsp"
    assert "Language Server Protocol 3.17" in result.stdout and "completion" in result.stdout and "rename" in result.stdout


def test_completion_gives_the_edit_range_once_to_a_client_that_takes_it(site):
    client = RawClient(site)
    completion = {"completionList": {"itemDefaults": ["editRange"]}, "completionItem": {"documentationFormat": ["markdown", "plaintext"]}}
    client.write(request(0, "initialize", {"capabilities": {"textDocument": {"completion": completion}}, "rootUri": site.as_uri()}))
    client.read_response(0)
    client.write({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    index = (site / "content/index.md").as_uri()
    text = INDEX_TEXT.replace("## Devices", "## Devices [[mo")
    client.write({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}})
    client.write(request(1, "textDocument/completion", {"textDocument": {"uri": index}, "position": {"line": 8, "character": 15}}))
    assert client.read_response(1)["result"] == {
        "isIncomplete": True,
        "itemDefaults": {"editRange": {"start": {"line": 8, "character": 13}, "end": {"line": 8, "character": 15}}},
        "items": [{
            "label": "mouse", "kind": 14, "detail": "team", "documentation": {"kind": "markdown", "value": "A pointing device."},
            "textEditText": "mouse]]",
        }],
    }
    assert client.close() == 1
