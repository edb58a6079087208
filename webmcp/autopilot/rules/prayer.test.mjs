// prayer.test.mjs - when a prayer is made (node --test, on a recorded frame: seed 3's Monk at turn 389, a kobold
// adjacent; its starting potions of healing taken out unless a test says otherwise).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';
import { DYING_PRAYER_GAP, FAINTING_PRAYER_GAP, PRAYER_GAP, STARVING_PRAYER_GAP } from './prayer.js';

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

test('Weak with no food: STARVING_PRAYER_GAP after the last prayer, not sooner', () => {
  const weak = starving('weak');
  const turn = weak.basis.turn;
  const soon = new CarefulBeginner();
  soon.prayed(turn - STARVING_PRAYER_GAP + 1);
  assert.notEqual(soon.next(weak, null).rule, 'prayInTrouble');
  const rested = new CarefulBeginner();
  rested.prayed(turn - STARVING_PRAYER_GAP);
  assert.equal(rested.next(weak, null).rule, 'prayInTrouble');
});

test('Fainting with no food: FAINTING_PRAYER_GAP is enough; never once the god is angry', () => {
  const fainting = starving('fainting');
  const turn = fainting.basis.turn;
  const policy = new CarefulBeginner();
  policy.prayed(turn - FAINTING_PRAYER_GAP);
  const move = policy.next(fainting, null);
  assert.deepEqual([move.rule, move.args.action], ['prayInTrouble', 'pray']);
  const soon = new CarefulBeginner();
  soon.prayed(turn - FAINTING_PRAYER_GAP + 1);
  assert.notEqual(soon.next(fainting, null).rule, 'prayInTrouble');
  const angry = new CarefulBeginner();
  angry.prayed(turn - PRAYER_GAP);
  angry.observe({ ...fainting, events: [{ type: 'heard', text: 'You feel that Anu is displeased.' }] });
  assert.equal(angry.memory.prayerUnsafe, true);
  assert.notEqual(angry.next(fainting, null).rule, 'prayInTrouble', 'a too-soon prayer set u.ugangr: every later one fails');
});
