"""test_stdio_client_gone.py - a client that goes away (killed, or its window closed) closes
the pipe the stdio server answers on. The server's next answer has nowhere to go: it ends
quietly, as it does at end of input, with no traceback on stderr and exit status 0.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from support.client import ROOT, require_driver, stdio_command
from test_stdio_limits import create


def test_a_closed_answer_pipe_ends_the_server_quietly(tmp_path: Path) -> None:
    require_driver()
    command, args, env = stdio_command(tmp_path / "state", "--no-spectator")
    process = subprocess.Popen(
        [command, *args], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the client is gone before the answer is written: the write meets a broken pipe
    process.stdin.write(json.dumps(create(1, modern=True)).encode() + b"\n")
    process.stdin.flush()
    process.stdin.close()
    stderr = process.stderr.read().decode()
    assert process.wait(60) == 0, stderr
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr
