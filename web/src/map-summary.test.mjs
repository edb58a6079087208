// map-summary.test.mjs - the map in a sentence, from what the map shows (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapSummary } from './map-summary.js';

const row = (y, marks, kinds) => ({ y, marks: marks.padEnd(80), ...(kinds ? { kinds: kinds.padEnd(80) } : {}) });

test('the hero, the eight squares around it (compass order) and the latest message', () => {
  const rows = [row(4, '---'), row(5, '|@d', '  M'), row(6, '.#+')];
  const text = mapSummary(rows, { x: 1, y: 5 }, ['Hello.', 'The jackal bites!']);
  assert.equal(text, 'Hero at column 1, row 5. Around: north: wall (-); northeast: wall (-); east: a creature (d); '
    + 'southeast: door (+); south: corridor (#); southwest: floor (.); west: wall (|); northwest: wall (-). '
    + 'Latest message: The jackal bites!');
});

test('nothing seen around; a count prompt is no message', () => {
  assert.equal(mapSummary([row(5, ' @ ')], { x: 1, y: 5 }, ['You see here a newt.', 'Count: 12']),
    'Hero at column 1, row 5. Nothing seen around. Latest message: You see here a newt.');
});

test('no hero (an ended game): only the message', () => {
  assert.equal(mapSummary([], null, ['Goodbye.']), 'Latest message: Goodbye.');
  assert.equal(mapSummary([], null, []), '');
});
