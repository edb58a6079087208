#!/usr/bin/env node
// make-snapshot.mjs - a Pyodide memory snapshot with our package imported,
// made at build time (scripts/build-site) so the core worker restores a
// ready interpreter instead of starting one and importing ~100 modules.
//
//   node scripts/make-snapshot.mjs PYODIDE_DIR WHEEL OUT.bin.gz
//
// The vendored Pyodide (the very files the site serves) boots under Node
// with _makeSnapshot; the wheel is unpacked into site-packages and every
// module of nethack_webmcp that imports in Pyodide is imported (modules that
// need the native servers' dependencies - starlette, anyio, psycopg... - are
// skipped: the browser never imports them); then makeMemorySnapshot() is
// gzip'd to OUT. The snapshot holds the interpreter's memory, not its file
// system: the worker unpacks the same wheel after restoring it, so sources,
// metadata and lazy reads find their files. nethack_webmcp.worker must import,
// or no snapshot is written (the build fails).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { loadPyodide } from 'pyodide';
import { answerHelp } from './usage.mjs';

answerHelp(import.meta.url);

const IMPORT_ALL = `
import importlib, json, pkgutil, sys
import nethack_webmcp
imported, skipped = [], {}
for module in pkgutil.walk_packages(nethack_webmcp.__path__, "nethack_webmcp."):
    try:
        importlib.import_module(module.name)
        imported.append(module.name)
    except ImportError as error:  # a native-only dependency (the browser never imports these)
        skipped[module.name] = str(error)
json.dumps({"imported": imported, "skipped": skipped, "worker": "nethack_webmcp.worker" in sys.modules})
`;

const [pyodideDir, wheelPath, out] = process.argv.slice(2);
if (!out) {
  console.error('usage: make-snapshot.mjs PYODIDE_DIR WHEEL OUT.bin.gz');
  process.exit(2);
}
const started = performance.now();
const pyodide = await loadPyodide({ indexURL: pyodideDir, _makeSnapshot: true, stdout: () => {} });
const sitePackages = pyodide.runPython("__import__('sysconfig').get_paths()['purelib']");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), 'wheel', { extractDir: sitePackages });
const report = JSON.parse(pyodide.runPython(IMPORT_ALL));
if (!report.worker) {
  console.error(`nethack_webmcp.worker does not import: ${report.skipped['nethack_webmcp.worker']}`);
  process.exit(1);
}
const snapshot = pyodide.makeMemorySnapshot();
const packed = gzipSync(snapshot, { level: 6 });
writeFileSync(`${out}.new`, packed);
renameSync(`${out}.new`, out);
console.log(`snapshot: ${report.imported.length} modules imported (${Object.keys(report.skipped).length} native-only skipped), `
  + `${(snapshot.length / 1e6).toFixed(1)} MB, ${(packed.length / 1e6).toFixed(1)} MB gzip, `
  + `${((performance.now() - started) / 1000).toFixed(1)} s`);
