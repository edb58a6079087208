#!/usr/bin/env node
// engine-identity.mjs - write identity.json for the engine builds of one target.
//
//   node scripts/engine-identity.mjs OUT.json RULES.txt NAME=FILE,FILE... [NAME=...]
//
// gameIdentity ("rules-sha256:…") is the sha256 of RULES.txt, the list of
// what determines a game (wasm/engine.mk writes it: NetHack's sources, the
// compile-time options, the driver, the hooks patch, sysconf). Every build
// made from the same rules shares it, and stored games are keyed by it.
// Each named build adds its files' sha256 and a buildIdentity over them:
// diagnostics (which binary ran a game), and the page's integrity check of
// what it downloaded. Can't fail silently: a missing file throws.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { answerHelp } from './usage.mjs';

answerHelp(import.meta.url);

const [out, rulesFile, ...buildArgs] = process.argv.slice(2);
const sha256 = (data) => createHash('sha256').update(data).digest('hex');

const rules = readFileSync(rulesFile);
const builds = {};
for (const arg of buildArgs) {
  const [name, list] = arg.split('=');
  const files = Object.fromEntries(list.split(',').map((path) => [basename(path), sha256(readFileSync(path))]));
  const lines = Object.entries(files).map(([file, digest]) => `${file}:${digest}`).join('\n');
  builds[name] = { files, buildIdentity: `${name}-sha256:${sha256(lines)}` };
}
const identity = {
  engine: 'nethack-semantic-driver',
  nethackVersion: '3.6.7',
  protocolVersion: 1,
  determinismProfile: 1,
  gameIdentity: `rules-sha256:${sha256(rules)}`,
  rules: rules.toString('utf8').trimEnd().split('\n'),
  builds,
};
writeFileSync(out, `${JSON.stringify(identity, null, 2)}\n`);
