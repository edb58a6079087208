"""test_json_c.py - build and run the C JSON reader/writer self-test (tests/c/test_json.c)."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "wasm" / "driver"
SOURCES = [ROOT / "tests" / "c" / "test_json.c", DRIVER / "json_read.c", DRIVER / "json_write.c", DRIVER / "utf8.c"]
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", f"-I{DRIVER}"]

VARIANTS = {
    "native": [],
    "m32": ["-m32"],
    "asan": ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-g"],
}


def _unavailable(why: str) -> None:
    """A missing toolchain skips on a developer's machine but fails in CI
    (CI=true), where scripts/build has installed gcc-multilib and the
    sanitizer runtimes: there a skip would hide a variant that never ran."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{why} (CI installs this toolchain: scripts/build)")
    pytest.skip(why)


def _gcc():
    gcc = shutil.which("gcc")
    if gcc is None:
        _unavailable("gcc not found")
    return gcc


def _toolchain_supports(gcc, extra, tmp_path):
    """Build and run a trivial program, so only a missing toolchain capability
    (no 32-bit libc, no sanitizer runtime) is reported as such, never our code."""
    probe = tmp_path / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    exe = tmp_path / "probe"
    r = subprocess.run([gcc, *extra, str(probe), "-o", str(exe)], check=False, capture_output=True, text=True)
    if r.returncode != 0:
        return False, r.stderr.strip()
    r = subprocess.run([str(exe)], check=False, capture_output=True, text=True)
    return r.returncode == 0, r.stderr.strip()


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_json_c(variant, tmp_path):
    gcc = _gcc()
    extra = VARIANTS[variant]
    if extra:
        ok, why = _toolchain_supports(gcc, extra, tmp_path)
        if not ok:
            _unavailable(f"gcc {' '.join(extra)} unsupported here: {why[:300]}")

    exe = tmp_path / f"test_json_{variant}"
    build = subprocess.run(
        [gcc, *extra, *CFLAGS, *map(str, SOURCES), "-o", str(exe)],
        check=False,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, f"compile failed:\n{build.stderr}"
    assert build.stderr.strip() == "", f"compiler warnings:\n{build.stderr}"

    run = subprocess.run([str(exe)], check=False, capture_output=True, text=True, timeout=120)
    lines = run.stdout.strip().splitlines()
    assert lines, f"no output; stderr:\n{run.stderr}"
    m = re.fullmatch(r"(\d+) passed, (\d+) failed", lines[-1])
    assert m, f"bad summary line {lines[-1]!r}\n{run.stdout}\n{run.stderr}"
    assert int(m.group(2)) == 0, run.stdout
    assert int(m.group(1)) > 0
    assert run.returncode == 0, f"exit {run.returncode}\n{run.stdout}\n{run.stderr}"
