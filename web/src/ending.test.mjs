// ending.test.mjs - the tombstone, the top-ten filter, the status lines and
// the tab title (node --test; the pure parts of the game page).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tombstoneLines, withoutTopTen } from './ending.js';
import { gameTitle, statusLines } from './status-lines.js';

test('the tombstone carries name, points, the cause wrapped inside the stone, and the year', () => {
  const lines = tombstoneLines({ name: 'Zedor', score: 2272, cause: 'killed by a quasit, while helpless', year: 2026 });
  const inside = lines.filter((line) => line.startsWith('  |')).map((line) => line.slice(3, -1).trim());
  assert.deepEqual(inside, ['Zedor', '2272 points', 'killed by a', 'quasit, while', 'helpless', '2026']);
  assert.ok(lines.every((line) => line.length <= 26), 'every line fits the stone');
  const long = tombstoneLines({ name: 'x'.repeat(40), score: 0, cause: 'y'.repeat(30), year: 2026 });
  assert.ok(long.every((line) => line.length <= 26), 'a long name or cause is cut, not spilled');
});

test('the top-ten table and what follows it are no messages', () => {
  const messages = ['You die...', 'No  Points     Name                   Hp [max]', '0 Quitter-Val-Dwa-Fem-Law quit in', 'on level 1. 18 [18]'];
  assert.deepEqual(withoutTopTen(messages), ['You die...']);
  assert.deepEqual(withoutTopTen(['Hello', 'Points here mean nothing']), ['Hello', 'Points here mean nothing']);
});

test('the two status lines are the tty\'s, and the title names the game', () => {
  const observation = { levelLabel: 'Dlvl:9', turn: 2900, depth: 9,
    vitals: { hp: 12, hpMax: 45, energy: 3, energyMax: 8, ac: 4, level: 6, experience: 460, gold: 120,
              strength: '16', dexterity: 14, constitution: 17, intelligence: 8, wisdom: 10, charisma: 9,
              alignment: 'neutral', hungerLabel: 'Hungry', burden: 'unencumbered', condition: ['Blind'] } };
  assert.deepEqual(statusLines(observation, 'Zedor'), [
    'Zedor St:16 Dx:14 Co:17 In:8 Wi:10 Ch:9 Neutral',
    'Dlvl:9 $:120 HP:12(45) Pw:3(8) AC:4 Xp:6/460 T:2900 Hungry Blind',
  ]);
  assert.equal(gameTitle('Zedor', observation, false), 'Zedor · Dlvl 9 · HP 12/45');
  assert.equal(gameTitle('Zedor', observation, true, 'killed by a quasit'), 'Zedor · killed by a quasit on Dlvl 9');
  assert.equal(gameTitle('', null, false), '(unnamed)');
});
