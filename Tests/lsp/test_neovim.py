"""Neovim's built-in LSP client (Debian's `neovim`, headless) against `glossary lsp`."""

import os
import subprocess
from pathlib import Path

from conftest import BIN

SCRIPT = Path(__file__).resolve().parent / "neovim-diagnostics.lua"


def test_neovim_shows_the_diagnostic_for_an_unknown_term(site, tmp_path):
    out = tmp_path / "diagnostics.txt"
    home = tmp_path / "home"
    env = {
        **os.environ,
        "GLOSSARY_BIN": BIN, "GLOSSARY_SITE": str(site), "GLOSSARY_PAGE": str(site / "content/index.md"), "GLOSSARY_OUT": str(out),
        "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"), "XDG_CACHE_HOME": str(home / "cache"),
    }
    subprocess.run(["nvim", "--headless", "--clean", "-c", f"luafile {SCRIPT}"], env=env, check=True, timeout=300, stdin=subprocess.DEVNULL)
    # Line 6 is "Café 😀 [[keybord]]…": Neovim counts the column in bytes (é is 2, the emoji 4), from the server's UTF-16.
    assert out.read_text(encoding="utf-8").splitlines() == [
        "6:11 unknown-term 2 no definition found for 'keybord' (offline, and not in the cache)"
    ]
