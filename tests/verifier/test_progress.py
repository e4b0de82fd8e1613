"""A long run shows how far it has got on a terminal (standard error), and nothing of it
reaches standard output or a pipe."""
from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest


def _run_on_a_terminal(*args: str) -> tuple[str, str]:
    """Standard output (a pipe) and what a terminal on standard error showed."""
    main, tty = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "verifier", *args], stdout=subprocess.PIPE,
                              stderr=tty, text=True, timeout=600)
        os.close(tty)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal is closed and drained
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(main)
    assert done.returncode == 0, done.stdout
    return done.stdout, shown.decode()


def test_check_with_json_counts_the_properties_on_a_terminal() -> None:
    out, shown = _run_on_a_terminal("check", "crescendo", "--json")
    assert json.loads(out)["exit"] == 0
    assert "properties checked" in shown and "of 40" in shown, shown
    assert shown.endswith("\r\x1b[K"), repr(shown[-40:])  # the line is cleared at the end


@pytest.mark.slow  # deals solved for some seconds, to pass the two before the count shows
def test_solve_over_many_deals_counts_the_deals_on_a_terminal() -> None:
    out, shown = _run_on_a_terminal("solve", "preference", "--deals", "30", "--json")
    assert json.loads(out)["deals"] == 30
    assert "deals solved" in shown and "of 30" in shown, shown
    assert shown.endswith("\r\x1b[K"), repr(shown[-40:])
