#!/usr/bin/env node
// build-tiles.mjs - convert NetHack's own 16x16 tile sources (win/share/
// monsters.txt, objects.txt, other.txt in the NetHack tarball) into one
// atlas image and its index, at build time: the tiles are never committed.
//
//   node scripts/build-tiles.mjs <win/share directory> <out directory>
//   → tiles.png    every tile, COLUMNS to a row, monsters then objects then other
//   → tiles.json   {size, columns, monsters: {name: index}, objects: {...}, other: {...}}
//
// The text format (win/share/tile.doc): a palette of `c = (r, g, b)` lines,
// then per tile `# tile N (name)` and 16 rows of 16 palette characters in
// braces. The palette's "." colour (71, 108, 108) is NetHack's transparent
// background; it becomes black here, the map's background.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { answerHelp } from './usage.mjs';

answerHelp(import.meta.url);

const SIZE = 16;
const COLUMNS = 40;
const SETS = ['monsters', 'objects', 'other'];
const BACKGROUND = '71,108,108';

/** @typedef {{name: string, pixels: number[][]}} Tile */

/** Parse one tile text file: [{name, pixels: [[r,g,b]×256]}].
 * @param {string} text
 * @param {string} file its name, for errors
 * @returns {Tile[]} */
function parseTiles(text, file) {
  /** @type {Map<string, number[]>} */
  const palette = new Map();
  /** @type {Tile[]} */
  const tiles = [];
  /** @type {Tile | null} */
  let current = null;
  for (const line of text.split('\n')) {
    const colour = /^(\S) = \(\s*(\d+),\s*(\d+),\s*(\d+)\)/.exec(line);
    if (colour && !current) {
      palette.set(colour[1], [Number(colour[2]), Number(colour[3]), Number(colour[4])]);
      continue;
    }
    const header = /^# tile (\d+) \((.*)\)\s*$/.exec(line);
    if (header) {
      current = { name: header[2].trim(), pixels: [] };
      continue;
    }
    if (!current) continue;
    const row = line.trim();
    if (row === '{') continue;
    if (row === '}') {
      if (current.pixels.length !== SIZE * SIZE) throw new Error(`${file}: tile ${current.name} is not ${SIZE}x${SIZE}`);
      tiles.push(current);
      current = null;
      continue;
    }
    if (row.length !== SIZE) continue;
    for (const key of row) {
      const rgb = palette.get(key);
      if (!rgb) throw new Error(`${file}: tile ${current.name} uses a colour not in the palette: ${key}`);
      current.pixels.push(rgb.join(',') === BACKGROUND ? [0, 0, 0] : rgb);
    }
  }
  return tiles;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGB PNG of `width`×`height` from `rgb` (3 bytes per pixel). */
function png(width, height, rgb) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // depth 8, colour type RGB, deflate, no filter, no interlace
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y += 1) {
    raw[y * (1 + width * 3)] = 0; // filter: none
    rgb.copy(raw, y * (1 + width * 3) + 1, y * width * 3, (y + 1) * width * 3);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** @param {string[]} argv the tile sources' directory, the output directory */
function main([source, out]) {
  if (!source || !out) throw new Error('usage: build-tiles.mjs <win/share directory> <out directory>');
  const index = { size: SIZE, columns: COLUMNS };
  const all = [];
  for (const set of SETS) {
    const tiles = parseTiles(readFileSync(join(source, `${set}.txt`), 'utf8'), `${set}.txt`);
    index[set] = {};
    for (const tile of tiles) {
      // the first tile of a name wins (objects.txt repeats appearances such
      // as "gold" for different objects; names here are looked up, not listed)
      if (!Object.hasOwn(index[set], tile.name)) index[set][tile.name] = all.length;
      all.push(tile);
    }
  }
  const rows = Math.ceil(all.length / COLUMNS);
  const width = COLUMNS * SIZE;
  const height = rows * SIZE;
  const rgb = Buffer.alloc(width * height * 3);
  all.forEach((tile, n) => {
    const left = (n % COLUMNS) * SIZE;
    const top = Math.floor(n / COLUMNS) * SIZE;
    tile.pixels.forEach(([r, g, b], p) => {
      const offset = ((top + Math.floor(p / SIZE)) * width + left + (p % SIZE)) * 3;
      rgb[offset] = r;
      rgb[offset + 1] = g;
      rgb[offset + 2] = b;
    });
  });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'tiles.png'), png(width, height, rgb));
  writeFileSync(join(out, 'tiles.json'), JSON.stringify(index));
  console.log(`tiles: ${all.length} tiles → ${width}x${height} atlas`);
}

main(process.argv.slice(2));
