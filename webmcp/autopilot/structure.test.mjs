// structure.test.mjs - the autopilot reads facts from the frame's structure
// (node --test). It fails when a source file under webmcp/autopilot reads the
// rendered map text, reads message text outside the allow-listed matches, or
// matches item labels / messages for a fact a field carries:
//   kills           events[type=creatureDied] {x, y, appearance}   (not /You kill/)
//   worn, wielded,  inventory[].equipmentSlots                     (not "(being worn)",
//   quivered                                                         "(in quiver)", "(weapon in hand)")
//   map squares     scene.features / objects / nearby, plan        (not scene.map.text)
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));

// Files that may read the rendered map, each with why: none. Search spots and
// boulder pushes are plan wayOn's (navigation/wayon.py), not re-derived here.
/** @type {Record<string, string>} */
const MAP_TEXT_ALLOWED = {};
// Message matches no structure carries, each with why (beginner.js names them).
const MESSAGE_MATCHES_ALLOWED = {
  DUST_WRITING: 'engravings ("Closed for inventory" before a shop door) are in no frame field',
  ANGRY_GOD: "the god's anger (a pet killed, a prayer too soon) is in no frame field",
  FEVERISH: 'lycanthropy is a hidden intrinsic: the player is told only "You feel feverish."',
  PURIFIED: 'its cure, likewise: "You feel purified."',
};
const MESSAGE_READERS = new Set(['beginner.js']); // where the allowed matches are applied
// Facts that fields carry: never matched in code (comments aside).
const FACTS_IN_TEXT = /You (?:\(\?:)?kill|being worn|in quiver|weapon in hand|wielded\)/;

/** The file's code with comments removed (a `//` inside a string or regex is rare here; none is a URL). */
export function code(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').split('\n').map((line) => line.replace(/(^|[^:\\'"])\/\/.*$/, '$1')).join('\n');
}

/** Every rule the source breaks, as strings naming the file. */
export function violations(file, source) {
  const found = [];
  const body = code(source);
  if (/\bmap\.text\b|\bmarkAt\(/.test(body) && !(file in MAP_TEXT_ALLOWED)) found.push(`${file}: reads the map text`);
  const fact = FACTS_IN_TEXT.exec(body);
  if (fact) found.push(`${file}: matches text for a fact a field carries (${fact[0]})`);
  const readsMessages = /\bevent\.text\b|\bresult\.message\b/.test(body); // (error.message is no game message)
  if (readsMessages && !MESSAGE_READERS.has(file)) found.push(`${file}: reads message text`);
  if (readsMessages) {
    for (const match of body.matchAll(/(\/(?:[^/\n\\]|\\.)+\/[a-z]*|\b\w+)\.test\(text\)/g)) {
      if (!(match[1] in MESSAGE_MATCHES_ALLOWED)) found.push(`${file}: matches message text with ${match[1]}, not allow-listed`);
    }
  }
  return found;
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sources(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

test('no autopilot module reads the map text or messages for a fact the frame carries', () => {
  const found = sources(HERE).flatMap((path) => violations(relative(HERE, path), readFileSync(path, 'utf8')));
  assert.deepEqual(found, []);
});

test('every allowed message match is defined, and used, where it is allowed', () => {
  const policy = readFileSync(join(HERE, 'beginner.js'), 'utf8');
  for (const name of Object.keys(MESSAGE_MATCHES_ALLOWED)) assert.match(code(policy), new RegExp(`const ${name} = /`));
});

test('the scan catches what it forbids', () => {
  assert.deepEqual(violations('rules/x.js', 'const rows = scene.map.text.split("\\n");'), ['rules/x.js: reads the map text']);
  assert.deepEqual(violations('rules/x.js', '// scene.map.text in a comment is fine\nconst a = 1;'), []);
  assert.equal(violations('beginner.js', "if (/You (?:kill|destroy) (.+)!/.test(text)) kills.push(event.text);").length, 2);
  assert.deepEqual(violations('beginner.js', 'const text = event.text; if (ANGRY_GOD.test(text)) x();'), []);
  assert.deepEqual(violations('beginner.js', 'const text = event.text; if (/You see/.test(text)) x();'),
                   ['beginner.js: matches message text with /You see/, not allow-listed']);
  assert.deepEqual(violations('rules/y.js', 'if (frame.result.message) say();'), ['rules/y.js: reads message text']);
  assert.deepEqual(violations('rules/y.js', 'fail(error.message);'), []);
  assert.equal(violations('armour.js', "if (/\\(being worn\\)/.test(item.label)) worn();").length, 1);
});
