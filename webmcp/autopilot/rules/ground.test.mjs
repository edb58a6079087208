// ground.test.mjs - a crowd is met from narrow ground (node --test, recorded frames of seed 3's Monk: in a doorless
// doorway at 21,17 with five walkable neighbours; in a corridor at 49,4 with four).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';

const jackal = (x, y, distance) => ({ x, y, kind: 'creature', mark: 'd', appearance: 'jackal', attitude: 'hostile', distance });

test('two hostiles close and the hero in the open: a step into the corridor beside it', () => {
  const open = frame('monk-lichen-killed');
  open.scene.here.items = [];
  open.scene.entities = [jackal(24, 17, 3), jackal(25, 15, 4)];
  const move = new CarefulBeginner().next(open, null);
  assert.deepEqual([move.rule, move.args.mode], ['narrowGround', 'step']);
  const cell = open.scene.nearby.find((entry) => entry.direction === move.args.target.direction);
  assert.equal(cell.terrain, 'corridor');
});

test('one hostile close is no crowd', () => {
  const open = frame('monk-lichen-killed');
  open.scene.entities = [jackal(24, 17, 3)];
  assert.notEqual(new CarefulBeginner().next(open, null).rule, 'narrowGround');
});

test('on narrow ground with a crowd coming and none adjacent: hold a few turns, then go on', () => {
  const narrow = () => {
    const corridor = frame('monk-attacked-by-kobold');
    corridor.scene.entities = [jackal(52, 4, 3), jackal(52, 6, 3)];
    for (const cell of corridor.scene.nearby) delete cell.occupant;
    return corridor;
  };
  const policy = new CarefulBeginner();
  const moves = Array.from({ length: 10 }, (_, turn) => {
    const now = narrow();
    now.basis.turn += turn; // each hold passes a turn (the same call at the same turn is a stuck one: beginner.js)
    return policy.next(now, null);
  });
  assert.deepEqual([moves[0].rule, moves[0].args.action, moves[0].args.turns], ['narrowGround', 'search', 1]);
  assert.equal(moves.filter((move) => move.rule === 'narrowGround').length, 8);
});

test('a hostile adjacent on narrow ground is fought', () => {
  const corridor = frame('monk-attacked-by-kobold');
  corridor.scene.entities.push(jackal(52, 6, 3));
  assert.equal(new CarefulBeginner().next(corridor, null).rule, 'fightAdjacent');
});

test('never diagonally into an open door, and a refused step is not tried again in the same turn', () => {
  const open = frame('monk-lichen-killed');
  open.scene.here.items = [];
  open.scene.entities = [jackal(24, 17, 3), jackal(25, 15, 4)];
  for (const cell of open.scene.nearby) {
    if (cell.terrain === 'corridor') cell.terrain = cell.direction === 'northwest' ? 'openDoor' : 'wall';
    if (cell.terrain === 'wall') cell.walkable = false;
  }
  const move = new CarefulBeginner().next(open, null);
  assert.notEqual(move.args.mode, 'step'); // only a diagonal door: no step (it holds its doorway instead)
  const straight = frame('monk-lichen-killed');
  straight.scene.here.items = [];
  straight.scene.entities = [jackal(24, 17, 3), jackal(25, 15, 4)];
  const policy = new CarefulBeginner();
  assert.equal(policy.next(straight, null).rule, 'narrowGround');
  assert.notEqual(policy.next(straight, null).rule, 'narrowGround'); // same square, same turn: it did not move
});
