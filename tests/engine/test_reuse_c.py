"""test_reuse_c.py - build and run the C self-test of section reuse and the byte helpers
(tests/c/test_reuse.c): a section's text is reused exactly when its key is byte for byte the
last one, serials name reused texts (what delta responses elide by), and the map rows' quote
scan finds '"' and '\\' at every offset. Native, 32-bit and sanitized (where every reuse is also
checked against a fresh write); clang, the driver's compiler."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "wasm" / "driver"
SOURCES = [ROOT / "tests" / "c" / "test_reuse.c"] + [
    DRIVER / name for name in ("obs_reuse.c", "nnh_bytes.c", "json_write.c", "utf8.c")
]
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", f"-I{DRIVER}"]
VARIANTS = {
    "native": [],
    "m32": ["-m32"],
    "asan": ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-g"],
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_reuse_c(variant: str, tmp_path: Path) -> None:
    clang = shutil.which("clang")
    if clang is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("clang not found (CI installs it: scripts/build)")
        pytest.skip("clang not found")
    exe = tmp_path / f"test_reuse_{variant}"
    build = subprocess.run(
        [clang, *VARIANTS[variant], *CFLAGS, *map(str, SOURCES), "-o", str(exe)],
        check=False,
        capture_output=True,
        text=True,
    )
    if build.returncode != 0 and variant != "native" and os.environ.get("CI", "").lower() != "true":
        pytest.skip(f"clang {' '.join(VARIANTS[variant])} unsupported here: {build.stderr[:300]}")
    assert build.returncode == 0, f"compile failed:\n{build.stderr}"
    run = subprocess.run([str(exe)], check=False, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", f"exit {run.returncode}\n{run.stdout}\n{run.stderr}"
