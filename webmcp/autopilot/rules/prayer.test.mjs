// prayer.test.mjs - when a prayer is made (node --test, on a recorded frame: seed 3's Monk at turn 389, a kobold
// adjacent; its starting potions of healing taken out unless a test says otherwise).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';
import { DYING_PRAYER_GAP, FAINTING_PRAYER_GAP, FAINTING_WAIT, PRAYER_GAP } from './prayer.js';

function dying(hp = 2, potions = false) {
  const attacked = frame('monk-attacked-by-kobold');
  attacked.scene.self.vitals.hp = hp;
  if (!potions) attacked.scene.inventory = attacked.scene.inventory.filter((item) => item.category !== 'potion');
  return attacked;
}

test('dying beside a hostile: a prayer DYING_PRAYER_GAP turns after the last one, not sooner', () => {
  const turn = dying().basis.turn;
  const policy = new CarefulBeginner();
  policy.prayed(turn - DYING_PRAYER_GAP);
  const move = policy.next(dying(), null);
  assert.deepEqual([move.rule, move.args.action, move.intent.kind], ['prayInTrouble', 'pray', 'pray']);
  const soon = new CarefulBeginner();
  soon.prayed(turn - DYING_PRAYER_GAP + 1);
  assert.notEqual(soon.next(dying(), null).rule, 'prayInTrouble');
});

test('low HP with no hostile close: the usual gap holds', () => {
  const alone = dying();
  alone.scene.entities = [];
  const policy = new CarefulBeginner();
  policy.prayed(alone.basis.turn - DYING_PRAYER_GAP - 100);
  assert.notEqual(policy.next(alone, null).rule, 'prayInTrouble');
  const rested = new CarefulBeginner();
  rested.prayed(alone.basis.turn - PRAYER_GAP);
  assert.equal(rested.next(dying(), null).rule, 'prayInTrouble');
});

test('a known healing potion is drunk rather than a prayer only the dying gap allows', () => {
  const withPotion = dying(2, true);
  const potion = withPotion.scene.inventory.find((item) => /potions? of healing/.test(item.label));
  const policy = new CarefulBeginner();
  policy.prayed(withPotion.basis.turn - DYING_PRAYER_GAP);
  const move = policy.next(withPotion, null);
  assert.deepEqual([move.rule, move.args.action, move.args.itemId], ['quaffHealing', 'drink', potion.id]);
});

test('HP 6 of 14 is no trouble a god fixes: no prayer', () => {
  assert.notEqual(new CarefulBeginner().next(dying(6), null).rule, 'prayInTrouble');
});

/** The kobold frame made a hunger case: HP full, nothing in sight, no food in the pack. */
function starving(hunger) {
  const hungry = frame('monk-attacked-by-kobold');
  hungry.scene.self.vitals.hp = hungry.scene.self.vitals.hpMax;
  hungry.scene.self.vitals.hunger = hunger;
  hungry.scene.entities = [];
  hungry.scene.inventory = hungry.scene.inventory.filter((item) => item.category !== 'food');
  return hungry;
}

test('Weak with no food: the full PRAYER_GAP, not sooner (a too-soon prayer angers the god for good)', () => {
  const weak = starving('weak');
  const turn = weak.basis.turn;
  const soon = new CarefulBeginner();
  soon.prayed(turn - 850);
  soon.observe(weak);
  assert.notEqual(soon.next(weak, null).rule, 'prayInTrouble');
  const rested = new CarefulBeginner();
  rested.prayed(turn - PRAYER_GAP);
  rested.observe(weak);
  assert.equal(rested.next(weak, null).rule, 'prayInTrouble');
});

test('Fainting with no food: the full gap until Fainting FAINTING_WAIT turns, then FAINTING_PRAYER_GAP', () => {
  const fainting = starving('fainting');
  const turn = fainting.basis.turn;
  const policy = new CarefulBeginner();
  policy.prayed(turn - FAINTING_WAIT - FAINTING_PRAYER_GAP);
  policy.observe(fainting); // first seen Fainting now
  assert.equal(policy.memory.faintingSince, turn);
  assert.notEqual(policy.next(fainting, null).rule, 'prayInTrouble');
  const later = starving('fainting');
  later.basis.turn = turn + FAINTING_WAIT;
  policy.observe(later);
  assert.equal(policy.memory.faintingSince, turn, 'the spell is counted from its first frame');
  const move = policy.next(later, null);
  assert.deepEqual([move.rule, move.args.action], ['prayInTrouble', 'pray']);
  const angry = new CarefulBeginner();
  angry.prayed(turn - FAINTING_WAIT - FAINTING_PRAYER_GAP);
  angry.observe(fainting);
  angry.memory.prayerUnsafe = true; // the god's anger read: no prayer is answered, so none is made
  assert.notEqual(angry.next(later, null).rule, 'prayInTrouble');
});

test('a fed hero forgets the Fainting spell', () => {
  const policy = new CarefulBeginner();
  policy.observe(starving('fainting'));
  assert.notEqual(policy.memory.faintingSince, null);
  policy.observe(starving('hungry'));
  assert.equal(policy.memory.faintingSince, null);
});
