// checkpoints.test.mjs - a checkpoint's page scan and compression give the same answer with Node's
// byte tools (memcmp, zlib) as with the browser's code (JavaScript loops, the streams API).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NODE_BYTE_TOOLS as NODE_TOOLS } from '../../../scripts/asyncify-node.mjs';
import { changedPages, decode, encode, useByteTools } from './checkpoints.js';

const PAGE = 4096;

/** A pseudo-random generator, so a failure repeats. */
function random(seed) {
  let state = seed >>> 0;
  return () => { state = (state * 1664525 + 1013904223) >>> 0; return state / 2 ** 32; };
}

/** A base memory of `pages` pages and a memory of `grown` more, some of its pages changed in one byte. */
function memories(seed, pages, grown) {
  const next = random(seed);
  const base = new Uint8Array(pages * PAGE).map(() => Math.floor(next() * 256));
  const memory = new Uint8Array((pages + grown) * PAGE);
  memory.set(base);
  const changed = new Set();
  for (let k = 0; k < pages / 4; k++) {
    const at = Math.floor(next() * memory.length);
    memory[at] ^= 1 + Math.floor(next() * 255); // never the same byte again
    changed.add(Math.floor(at / PAGE));
  }
  for (const page of [...changed]) {
    // a page past the base is compared with zeros: one changed back to zero is not a difference
    if (page >= pages && memory.subarray(page * PAGE, (page + 1) * PAGE).every((byte) => byte === 0)) changed.delete(page);
  }
  return { base, memory, changed: [...changed].sort((a, b) => a - b) };
}

test('the page scan finds exactly the changed pages, with and without memcmp', () => {
  try {
    for (const [seed, pages, grown] of [[1, 64, 0], [2, 40, 9], [3, 17, 3], [4, 200, 0]]) {
      const { base, memory, changed } = memories(seed, pages, grown);
      useByteTools({});
      assert.deepEqual(changedPages(memory, base), changed);
      useByteTools(NODE_TOOLS);
      assert.deepEqual(changedPages(memory, base), changed);
    }
    useByteTools(NODE_TOOLS);
    const { base } = memories(5, 32, 0);
    assert.deepEqual(changedPages(base.slice(), base), []);
  } finally {
    useByteTools({});
  }
});

test('a record compressed by either side decodes on the other, byte for byte', async () => {
  const base = { build: 'test', hash: 'base', memory: new Uint8Array(0), files: new Map() };
  const next = random(9);
  const state = {
    memoryLength: 8 * PAGE, pages: Uint32Array.from([1, 5]),
    pageData: new Uint8Array(2 * PAGE).map(() => Math.floor(next() * 8)), stackPointer: 1234,
    asyncify: { currData: 99, callStackId: 3, callStackIdToName: { 1: 'main' } },
    files: [{ path: '/nh/level.1', data: new Uint8Array([1, 2, 3, 4, 5]) }], removed: ['/nh/gone'], streams: [],
  };
  const meta = { move: 7, digest: 'd7', summary: null, build: 'test', baseHash: 'base' };
  try {
    for (const [making, reading] of [[{}, NODE_TOOLS], [NODE_TOOLS, {}], [NODE_TOOLS, NODE_TOOLS]]) {
      useByteTools(making);
      const record = await encode(meta, state, '{"memory": 1}');
      useByteTools(reading);
      const decoded = await decode(record, base, 'd7');
      assert.deepEqual([...decoded.pages], [1, 5]);
      assert.deepEqual(decoded.pageData, state.pageData);
      assert.deepEqual(decoded.files[0].data, state.files[0].data);
      assert.equal(decoded.stackPointer, 1234);
      assert.deepEqual(decoded.removed, ['/nh/gone']);
    }
  } finally {
    useByteTools({});
  }
});
