// checkpoints.js - exact checkpoints of an Asyncify engine that waits for
// input (replay-engine.js), restored into a fresh instance, never the live one.
//
// What the next input depends on, and where a checkpoint keeps it:
//   linear memory      NetHack's and the driver's globals, the heap, the RNG,
//                      and the C stack Asyncify unwound into memory at the wait
//                      (stored as the 4 KiB pages that differ from the *base*:
//                      a fresh instance's memory before any request)
//   the stack pointer  a wasm global outside memory (stackSave/stackRestore)
//   Asyncify's JS side the unwound stack's data pointer and the export-name
//                      IDs its header refers to (the build exports Asyncify)
//   the engine's files Emscripten's in-memory file system under /nh (level
//                      files, lock, record...): the files that differ from the
//                      base, and the descriptors open across the wait (nhdat)
//                      with their positions
//   the navigation     the host's navigation memory at the move (Python's
//   memory             WorldTracker as navigation/snapshot.py's ASCII JSON),
//                      which a session resumed from the checkpoint goes on
//                      from; made by the checkpointing replay folding its full
//                      responses (checkpoint-replay.js). A seek shows the
//                      engine's own frame, which does not depend on it, so a
//                      record without one (Node's) still serves seeks.
//
// A checkpoint names what it was made from and is refused otherwise:
//   build + baseHash   the Asyncify build and its base memory (stale: rebuilt)
//   digest             the journal's chain digest at its move (journalChanged)
//   sha256             of its encoded bytes (checkpointTampered)
//   navigationSha256   of its navigation memory (gzip'd text), also inside the
//                      bytes' header (checkpointTampered: the memory changed)
// and a restored checkpoint is verified when used: replaying from it must
// reach the boundaries the journal recorded (checkpoint-replay.js).

export const FORMAT = 1;
const PAGE = 4096;
const ROOT = '/nh';
const MAGIC = 'NNHCKPT1';

export class CheckpointRefused extends Error {
  /** @param {string} code checkpointTampered | checkpointStale | journalChanged | replayDiverged
   *  @param {string} message */
  constructor(code, message) {
    super(message);
    this.name = 'CheckpointRefused';
    this.code = code;
  }
}

export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

// ---- the base: a fresh instance before any request -------------------------

/** The base every checkpoint of this build is a difference from. */
export async function captureBase(engine, build) {
  const memory = new Uint8Array(engine.memory.buffer).slice();
  return { build, memory, files: readFiles(engine.module.FS), hash: await sha256Hex(memory) };
}

function readFiles(FS) {
  const files = new Map();
  const walk = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const path = `${dir}/${name}`;
      const mode = FS.stat(path).mode;
      if (FS.isDir(mode)) walk(path);
      else if (FS.isFile(mode)) files.set(path, FS.readFile(path));
    }
  };
  walk(ROOT);
  return files;
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  if (tools.compare) return tools.compare(a, b) === 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ---- byte tools: the host's fast ones when it has them ----------------------

/** @typedef {{compare?: (a: Uint8Array, b: Uint8Array) => number,
 *             gzip?: (bytes: Uint8Array) => Uint8Array, gunzip?: (bytes: Uint8Array) => Uint8Array}} ByteTools */
/** @type {ByteTools} */
let tools = {};

/** Node's hosts give memcmp (Buffer.compare) and zlib: a checkpoint's snapshot and its encoding
 *  took 24-37 and 14-33 ms there with JavaScript loops and the streams API, 4-7 and 7-8 ms with
 *  them (docs/BENCHMARKS.md, session 14). The browser has neither: it keeps the code below. The bytes
 *  are gzip either way, so a record made with one decodes with the other.
 * @param {ByteTools} given */
export function useByteTools(given) {
  tools = { ...given };
}

const CHUNK = 16 * PAGE; // compared at once by `tools.compare`, then page by page where it differs

/** The 4 KiB pages of `memory` that differ from `baseMemory` (a page past its end: from zeros). */
export function changedPages(memory, baseMemory) {
  const pages = [];
  const count = memory.length / PAGE;
  const compare = tools.compare;
  if (compare) {
    const common = Math.min(memory.length, baseMemory.length);
    for (let chunk = 0; chunk < common; chunk += CHUNK) {
      const end = Math.min(common, chunk + CHUNK);
      if (compare(memory.subarray(chunk, end), baseMemory.subarray(chunk, end)) === 0) continue;
      for (let at = chunk; at < end; at += PAGE) {
        if (compare(memory.subarray(at, at + PAGE), baseMemory.subarray(at, at + PAGE)) !== 0) pages.push(at / PAGE);
      }
    }
    for (let page = common / PAGE; page < count; page++) if (!isZero(memory, page)) pages.push(page);
    return pages;
  }
  const words = new Uint32Array(memory.buffer, memory.byteOffset, memory.byteLength >> 2);
  const baseWords = new Uint32Array(baseMemory.buffer, baseMemory.byteOffset, baseMemory.byteLength >> 2);
  const perPage = PAGE >> 2;
  for (let page = 0; page < count; page++) {
    const start = page * perPage;
    let differs = false;
    if (start >= baseWords.length) {
      differs = !isZero(memory, page);
    } else {
      for (let i = start; i < start + perPage; i++) if (words[i] !== baseWords[i]) { differs = true; break; }
    }
    if (differs) pages.push(page);
  }
  return pages;
}

function isZero(memory, page) {
  const words = new Uint32Array(memory.buffer, memory.byteOffset + page * PAGE, PAGE >> 2);
  for (let i = 0; i < words.length; i++) if (words[i] !== 0) return false;
  return true;
}

async function gzip(bytes) {
  return tools.gzip ? tools.gzip(bytes) : transform(bytes, new CompressionStream('gzip'));
}

async function gunzip(bytes) {
  return tools.gunzip ? tools.gunzip(bytes) : transform(bytes, new DecompressionStream('gzip'));
}

// ---- taking one ------------------------------------------------------------

/** The engine's state now, as a difference from `base`. The engine must be
 *  waiting for input with its stack unwound (engine.quiescent). */
export function snapshot(engine, base) {
  if (!engine.quiescent) throw new Error('checkpoint: the engine is not waiting for input');
  const module = engine.module;
  const FS = module.FS;
  // files held open across the wait (the data library nhdat stays open):
  // path, flags and position, reopened at the same descriptor on restore
  const streams = FS.streams.filter((stream) => stream && stream.fd > 2)
    .map((stream) => ({ fd: stream.fd, path: stream.path, flags: stream.flags, position: stream.position }));
  const memory = new Uint8Array(engine.memory.buffer);
  const pages = changedPages(memory, base.memory);
  const pageData = new Uint8Array(pages.length * PAGE);
  pages.forEach((page, at) => pageData.set(memory.subarray(page * PAGE, (page + 1) * PAGE), at * PAGE));
  const files = [];
  const now = readFiles(FS);
  for (const [path, data] of now) {
    const was = base.files.get(path);
    if (!was || !sameBytes(was, data)) files.push({ path, data });
  }
  const removed = [...base.files.keys()].filter((path) => !now.has(path));
  const asyncify = module.Asyncify;
  return {
    memoryLength: memory.length,
    pages: Uint32Array.from(pages),
    pageData,
    stackPointer: module.stackSave(),
    asyncify: {
      currData: asyncify.currData,
      callStackId: asyncify.callStackId,
      callStackIdToName: { ...asyncify.callStackIdToName },
    },
    files,
    removed,
    streams,
  };
}

// ---- restoring one ---------------------------------------------------------

/** Put `state` (snapshot()) into `engine`, a fresh instance of the same
 *  build still waiting for its first request. Its next request then runs
 *  exactly as the snapshotted engine's next request would have. */
export function restoreInto(engine, state, base) {
  if (!engine.quiescent) throw new Error('checkpoint: the instance to restore into is not waiting');
  const module = engine.module;
  // A fresh instance's memory is the base, byte for byte (startup is
  // deterministic: tests/replays/test_wasm_checkpoints.py restores exactly),
  // so only the pages that differ from the base are written ...
  if (engine.memory.buffer.byteLength !== base.memory.length) {
    throw new Error('checkpoint: the instance to restore into is not fresh');
  }
  if (state.memoryLength > base.memory.length) {
    // ... unless the memory must grow: grown through the engine's own
    // allocator (so emcc's heap views follow), whose allocation dirties the
    // memory, so then the whole base is written back first
    if (!module._malloc(state.memoryLength - base.memory.length)) {
      throw new Error('checkpoint: could not grow the memory to restore into');
    }
    const memory = new Uint8Array(engine.memory.buffer);
    memory.set(base.memory);
    memory.fill(0, base.memory.length);
  }
  const memory = new Uint8Array(engine.memory.buffer);
  state.pages.forEach((page, at) => memory.set(state.pageData.subarray(at * PAGE, (at + 1) * PAGE), page * PAGE));
  module.stackRestore(state.stackPointer);
  const asyncify = module.Asyncify;
  asyncify.currData = state.asyncify.currData;
  asyncify.callStackId = state.asyncify.callStackId;
  asyncify.callStackIdToName = { ...state.asyncify.callStackIdToName };
  asyncify.callStackNameToId = Object.fromEntries(
    Object.entries(state.asyncify.callStackIdToName).map(([id, name]) => [name, Number(id)]));
  const FS = module.FS;
  for (const path of state.removed) FS.unlink(path);
  for (const { path, data } of state.files) {
    const dir = path.slice(0, path.lastIndexOf('/'));
    if (dir && !FS.analyzePath(dir).exists) FS.mkdirTree(dir);
    FS.writeFile(path, data);
  }
  const wanted = new Map(state.streams.map((stream) => [stream.fd, stream]));
  for (const stream of FS.streams.filter((open) => open && open.fd > 2)) {
    const want = wanted.get(stream.fd);
    if (!want || want.path !== stream.path || want.flags !== stream.flags) FS.close(stream);
  }
  for (const want of state.streams) {
    const stream = FS.getStream(want.fd) || FS.open(want.path, want.flags, 0, want.fd, want.fd);
    if (stream.fd !== want.fd) throw new Error(`checkpoint: could not reopen ${want.path} as descriptor ${want.fd}`);
    stream.position = want.position;
  }
}

// ---- bytes: encoding, compression, integrity -------------------------------

/** A checkpoint record as stored (IndexedDB, files): `meta` is what it
 *  claims (move, digest, summary, build, baseHash), `bytes` the compressed
 *  state and `sha256` the digest of those bytes; with `navigation` (the
 *  navigation snapshot's text) also that text gzip'd and its `navigationSha256`,
 *  which the hashed header repeats.
 * @param {any} meta @param {any} state @param {string | null} [navigation] */
export async function encode(meta, state, navigation = null) {
  // compressed: a memory is 15-80 KB of JSON text (the map rows of every level seen), ~8x smaller gzip'd
  const memory = navigation === null ? null
    : await gzip(new TextEncoder().encode(navigation));
  const navigationSha256 = memory === null ? null : await sha256Hex(memory);
  const blobs = [new Uint8Array(state.pages.buffer, state.pages.byteOffset, state.pages.byteLength), state.pageData,
                 ...state.files.map((file) => file.data)];
  const header = new TextEncoder().encode(JSON.stringify({
    format: FORMAT, meta, memoryLength: state.memoryLength, stackPointer: state.stackPointer,
    asyncify: state.asyncify, removed: state.removed, streams: state.streams, files: state.files.map((file) => file.path),
    sizes: blobs.map((blob) => blob.byteLength), navigationSha256,
  }));
  const magic = new TextEncoder().encode(MAGIC);
  const length = new Uint8Array(new Uint32Array([header.length]).buffer);
  const raw = await new Blob([magic, length, header, ...blobs]).arrayBuffer();
  const bytes = await gzip(new Uint8Array(raw));
  const record = { ...meta, format: FORMAT, sha256: await sha256Hex(bytes), bytes };
  return memory === null ? record : { ...record, navigation: memory, navigationSha256 };
}

/** The state of a stored record, checked: its bytes are the ones it was
 *  stored with, it is of this build and base, and (when given) the journal
 *  digest at its move is the one it was made from.
 * @param {any} record @param {any} base @param {string | null} [digest] */
export async function decode(record, base, digest = null) {
  if (!record || !(record.bytes instanceof Uint8Array)) {
    throw new CheckpointRefused('checkpointTampered', 'the checkpoint has no state bytes');
  }
  if (await sha256Hex(record.bytes) !== record.sha256) {
    throw new CheckpointRefused('checkpointTampered',
      `the checkpoint at move ${record.move} does not match its digest: it was changed after it was made`);
  }
  if (record.format !== FORMAT || record.build !== base.build || record.baseHash !== base.hash) {
    throw new CheckpointRefused('checkpointStale',
      `the checkpoint at move ${record.move} was made by another engine build; it is rebuilt`);
  }
  if (digest !== null && record.digest !== digest) {
    throw new CheckpointRefused('journalChanged',
      `the checkpoint at move ${record.move} was made from a different journal than this game's`);
  }
  let raw;
  try {
    raw = await gunzip(record.bytes);
  } catch (error) {
    throw new CheckpointRefused('checkpointTampered', `the checkpoint at move ${record.move} cannot be read: ${error}`);
  }
  const magic = new TextDecoder().decode(raw.subarray(0, MAGIC.length));
  if (magic !== MAGIC) throw new CheckpointRefused('checkpointTampered', 'not a checkpoint');
  const headerLength = new DataView(raw.buffer, raw.byteOffset + MAGIC.length, 4).getUint32(0, true);
  let offset = MAGIC.length + 4;
  const header = JSON.parse(new TextDecoder().decode(raw.subarray(offset, offset + headerLength)));
  offset += headerLength;
  if (header.meta.move !== record.move || header.meta.digest !== record.digest) {
    throw new CheckpointRefused('checkpointTampered', `the checkpoint at move ${record.move} describes another move`);
  }
  if ((header.navigationSha256 ?? null) !== (record.navigationSha256 ?? null)) {
    throw new CheckpointRefused('checkpointTampered',
      `the checkpoint at move ${record.move} names another navigation memory than the one it was made with`);
  }
  const blobs = header.sizes.map((size) => {
    const blob = raw.slice(offset, offset + size);
    offset += size;
    return blob;
  });
  return {
    memoryLength: header.memoryLength,
    pages: new Uint32Array(blobs[0].buffer, 0, blobs[0].byteLength >> 2),
    pageData: blobs[1],
    stackPointer: header.stackPointer,
    asyncify: header.asyncify,
    files: header.files.map((path, at) => ({ path, data: blobs[2 + at] })),
    removed: header.removed,
    streams: header.streams,
  };
}

/** The navigation memory a record holds (its snapshot text, unpacked), checked
 *  against its digest; null when the record has none (made without one: Node's).
 *  decode() checks that the digest is the one its hashed header names. */
export async function navigationOf(record) {
  if (record.navigation == null && record.navigationSha256 == null) return null;
  if (!(record.navigation instanceof Uint8Array) || await sha256Hex(record.navigation) !== record.navigationSha256) {
    throw new CheckpointRefused('checkpointTampered',
      `the checkpoint at move ${record.move} holds a navigation memory that does not match its digest: `
      + 'it was changed after it was made');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true })
      .decode(await gunzip(record.navigation));
  } catch (error) {
    throw new CheckpointRefused('checkpointTampered',
      `the checkpoint at move ${record.move}'s navigation memory cannot be read: ${error}`);
  }
}

async function transform(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

// ---- the journal's digest chain at checkpoint moves ------------------------

/** Canonical JSON (keys sorted, no spaces): the same text for the same value. */
export function canonical(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value).sort().filter((key) => value[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
}

const LINK = 512; // inputs per link of the chain

/** The journal's digest at any move: a chain over fixed links of LINK
 *  inputs (link j = sha256(link j-1 + the canonical inputs of link j)), and
 *  digest(m) = sha256(the last whole link before m + the inputs after it up
 *  to m). Every byte of the journal is hashed about once (links are kept),
 *  the digest of a move does not depend on which other moves have
 *  checkpoints, and a journal edited at or before a checkpoint's move no
 *  longer yields its digest. `inputs[k-1]` is move k's {request, receipt}
 *  (the array may grow: a game that goes on); `creation` the game's {create, created}. */
export class JournalChain {
  constructor(creation, inputs) {
    this.creation = creation;
    this.inputs = inputs;
    /** @type {string[]} */
    this.links = [];
  }

  text(from, to) {
    return this.inputs.slice(from, to).map((input) => canonical(input)).join('\n');
  }

  async at(move) {
    const encoder = new TextEncoder();
    if (!this.links.length) this.links.push(await sha256Hex(encoder.encode(canonical(this.creation))));
    const j = Math.floor(move / LINK);
    while (this.links.length <= j) {
      const k = this.links.length;
      this.links.push(await sha256Hex(encoder.encode(`${this.links[k - 1]}\n${this.text((k - 1) * LINK, k * LINK)}`)));
    }
    return move === j * LINK ? this.links[j] : sha256Hex(encoder.encode(`${this.links[j]}\n${this.text(j * LINK, move)}`));
  }
}
