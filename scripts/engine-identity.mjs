#!/usr/bin/env node
// engine-identity.mjs - write identity.json for a built engine directory:
// NetHack version, emcc version and the sha256 of each engine file. The
// package identity (a hash over those) pins resume to the exact build.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, emccVersion] = process.argv.slice(2);
const files = ['nethack.js', 'nethack.wasm'];
const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const hashes = Object.fromEntries(files.map((name) => [name, sha256(readFileSync(join(dir, name)))]));
const identity = {
  engine: 'nethack-semantic-driver',
  nethackVersion: '3.6.7',
  protocolVersion: 1,
  determinismProfile: 1,
  emcc: emccVersion || 'unknown',
  files: hashes,
  packageIdentity: sha256(files.map((name) => `${name}:${hashes[name]}`).join('\n')),
};
writeFileSync(join(dir, 'identity.json'), `${JSON.stringify(identity, null, 2)}\n`);
