#!/usr/bin/env node
// py-compile-wheel.mjs - add CPython bytecode for Pyodide's Python to pure
// Python wheels, as Pyodide's own distribution does for its packages, so
// the page imports them without compiling every module at each load.
//
//   node scripts/py-compile-wheel.mjs IN.whl OUT.whl [IN.whl OUT.whl …]
//
// The bytecode is made by the vendored Pyodide itself (run under Node), so
// its magic number matches the browser's interpreter. Each `x.py` keeps its
// source and gains `__pycache__/x.<cache_tag>.pyc` as an *unchecked hash*
// pyc (PEP 552): valid whatever the file times after unpacking. RECORD is
// rewritten with the new files' hashes.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadPyodide } from 'pyodide';
import { answerHelp } from './usage.mjs';

answerHelp(import.meta.url);

const COMPILE = `
import base64, hashlib, importlib.util, posixpath, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def compile_wheel(source, target):
    with zipfile.ZipFile(source) as wheel_in:
        record = next(name for name in wheel_in.namelist() if name.endswith(".dist-info/RECORD"))
        files = []
        for info in wheel_in.infolist():
            if info.filename == record or info.is_dir():
                continue
            data = wheel_in.read(info)
            files.append((info.filename, data))
            if info.filename.endswith(".py"):
                code = compile(data, info.filename, "exec", dont_inherit=True)
                pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                folder, name = posixpath.split(info.filename)
                files.append((posixpath.join(folder, "__pycache__",
                                             f"{name[:-3]}.{sys.implementation.cache_tag}.pyc"), bytes(pyc)))
    lines = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel_out:
        for name, data in files:
            wheel_out.writestr(zipfile.ZipInfo(name, date_time=(2020, 2, 2, 0, 0, 0)), data,
                               compress_type=zipfile.ZIP_DEFLATED)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            lines.append(f"{name},sha256={digest},{len(data)}")
        lines.append(f"{record},,")
        wheel_out.writestr(zipfile.ZipInfo(record, date_time=(2020, 2, 2, 0, 0, 0)), "\\n".join(lines) + "\\n",
                           compress_type=zipfile.ZIP_DEFLATED)
`;

const pairs = process.argv.slice(2);
if (pairs.length === 0 || pairs.length % 2) {
  console.error('usage: py-compile-wheel.mjs IN.whl OUT.whl [IN.whl OUT.whl …]');
  process.exit(2);
}
const pyodide = await loadPyodide({ stdout: () => {}, stderr: (text) => console.error(text) });
pyodide.runPython(COMPILE);
const compileWheel = pyodide.globals.get('compile_wheel');
for (let i = 0; i < pairs.length; i += 2) {
  pyodide.FS.writeFile('/tmp/in.whl', readFileSync(pairs[i]));
  compileWheel('/tmp/in.whl', '/tmp/out.whl');
  writeFileSync(pairs[i + 1], pyodide.FS.readFile('/tmp/out.whl'));
}
