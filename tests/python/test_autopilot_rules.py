"""test_autopilot_rules.py - the careful beginner's food, armour, prayer and answer rules.

The policy (webmcp/autopilot) is plain JavaScript; Node evaluates its real
modules here on hand-made frames and questions, so each rule a beginner
relies on is pinned: which corpses are eaten, which armour is worn, when a
prayer is allowed, and that a question is answered only as the autopilot's
own intent calls for; and the ways out of a stuck level (legs that pass no
turn counted as stalls, a shut-in hero stepping over a trap, leaving a level
upward). Boulder pushes and search spots are plan wayOn's (navigation/wayon.py),
followed by webmcp/autopilot/rules/wayon.js and tested beside it.
"""

from __future__ import annotations

import json
import subprocess

from support.client import ROOT

SCRIPT = r"""
import { safeCorpse, corpseWelcome, packFood } from './webmcp/autopilot/food.js';
import { wearableSlot, wornSlots, armourToWear } from './webmcp/autopilot/armour.js';
import { chooseAnswer } from './webmcp/autopilot/answers.js';
import { CarefulBeginner } from './webmcp/autopilot/beginner.js';
import { digDown } from './webmcp/autopilot/rules/ways.js';
import { freshCorpseHere } from './webmcp/autopilot/rules/eating.js';

const out = {};
out.corpses = ['a newt corpse', 'a partly eaten jackal corpse', 'a kobold corpse', 'an acid blob corpse',
  'a gnome corpse', 'a little dog corpse', 'a werejackal corpse', 'a bat corpse'].map((text) => safeCorpse(text, 'human'));
out.gnomeEatsGnome = safeCorpse('a gnome corpse', 'gnome');
out.monkMeat = [corpseWelcome('a newt corpse', 'Monk', 'not_hungry'), corpseWelcome('a newt corpse', 'Monk', 'hungry'),
  corpseWelcome('a lichen corpse', 'Monk', 'not_hungry')];
out.packFood = packFood([{ id: 'i1', category: 'food', label: 'a jackal corpse' },
  { id: 'i2', category: 'food', label: 'a clove of garlic' }]).id;
const worn = wornSlots([{ category: 'armor', label: 'a +0 leather cloak (being worn)', equipmentSlots: ['cloak'] }]);
out.armour = [wearableSlot('a hard hat', 'Valkyrie', worn), wearableSlot('a pair of combat boots', 'Valkyrie', worn),
  wearableSlot('a ring mail', 'Valkyrie', worn), wearableSlot('a ring mail', 'Valkyrie', new Set()),
  wearableSlot('a ring mail', 'Monk', new Set()), wearableSlot('an orcish helm (for sale, 13 zorkmids)', 'Valkyrie', worn)];
out.toWear = (armourToWear([{ id: 'a', category: 'armor', label: 'a pair of jackboots' }], 'Caveman') || {}).id;

const pray = { kind: 'confirmation', prompt: 'Are you sure you want to pray? [yn] (n)', reply: {}, cancel: null };
out.prayAnswers = [chooseAnswer(pray, { intent: { kind: 'pray' } }).value, chooseAnswer(pray, { intent: null }).value];
const corpse = { kind: 'confirmation', prompt: 'There is a kobold corpse here; eat it? [ynq] (n)' };
out.koboldMeal = chooseAnswer(corpse, { intent: { kind: 'eat' }, mayEat: true, race: 'human' }).value;
const other = { kind: 'confirmation', prompt: 'There is a newt corpse here; eat it? [ynq] (n)' };
out.otherCorpse = chooseAnswer(other, { intent: { kind: 'eat', corpse: 'a jackal corpse' }, mayEat: true, race: 'human' }).value;
out.unasked = chooseAnswer({ kind: 'text', prompt: 'What do you want to name this?', cancel: { arguments: {} } }, { intent: null });

const policy = new CarefulBeginner();
out.safe = [policy.prayerLikelySafe(100), policy.prayerLikelySafe(160)];
policy.prayed(500);
out.afterPrayer = [policy.prayerLikelySafe(1400), policy.prayerLikelySafe(1500)];
policy.observe({ basis: { turn: 1600, levelId: 'd0-l1' }, scene: { self: { position: { x: 1, y: 1 }, level: {} } },
                 events: [{ type: 'heard', text: 'You feel guilty.' }] });
out.afterGuilt = policy.prayerLikelySafe(1600);
policy.observe({ basis: { turn: 1601, levelId: 'd0-l1' }, scene: { self: { position: { x: 1, y: 1 }, level: {} } },
                 events: [{ type: 'heard', text: 'You feel that Anu is displeased.' }] });
out.afterDispleasure = policy.prayerLikelySafe(5000);

// Weak with no food, 800 turns after the last prayer: pray (its meal lasts ~850 turns to Weak).
const weak = (turn) => ({ basis: { turn, levelId: 'd0-l3', sessionId: 's', viewId: 'v' },
  scene: { self: { position: { x: 5, y: 5 }, vitals: { hp: 20, hpMax: 20, hunger: 'weak', condition: [] },
                   role: 'Monk', race: 'human', level: {} }, entities: [], inventory: [], features: [], here: {} } });
const starving = new CarefulBeginner();
starving.prayed(1000);
out.starvingPrayer = [starving.next(weak(1799), null).args?.action || null, starving.next(weak(1800), null).args?.action];
// Fainting with no food, any prayer 100 turns after the last is the only chance left.
const fainting = (turn) => { const frame = weak(turn); frame.scene.self.vitals.hunger = 'fainting'; return frame; };
out.faintingPrayer = [starving.next(fainting(1099), null).args?.action || null, starving.next(fainting(1100), null).args?.action];

// Explore legs whose steps pass no turn (walking into a vanished corridor) are stalls.
const stall = new CarefulBeginner();
for (let i = 0; i < 3; i += 1) {
  stall.afterLeg({ basis: { turn: 940 }, result: { stopReason: 'blocked', actionsTaken: 1 } }, 'explore', 'd0-l6', 940);
}
out.stalled = stall.memory.level('d0-l6').explored;
// Something it must not touch, in the way of a stuck hero: shot at, or fought only with HP to spare.
const stuckAt = (hp, entities, inventory) => {
  const beginner = new CarefulBeginner();
  beginner.memory.level('d0-l4').explored = true;
  const frame = { basis: { turn: 900, levelId: 'd0-l4', sessionId: 's', viewId: 'v' },
    scene: { self: { position: { x: 10, y: 10 }, vitals: { hp, hpMax: 40, hunger: 'not_hungry', condition: [] },
                     role: 'Ranger', race: 'human', level: {} },
             entities, inventory, features: [], here: { terrain: 'corridor' } } };
  const move = beginner.next(frame, null);
  return [move.args?.action, move.args?.direction || move.args?.target?.direction || null, move.args?.itemId || null];
};
const eye = { x: 11, y: 10, appearance: 'floating eye', attitude: 'hostile', distance: 1, direction: 'east' };
const quiver = [{ id: 'q', category: 'weapon', label: '53 +2 arrows (in quiver pouch)', equipmentSlots: ['quiver'] }];
const spareOnly = [{ id: 'd', category: 'weapon', label: 'a +1 dagger (weapon in hand)', equipmentSlots: ['weapon'] },
  { id: 'f', category: 'gem', label: '3 flint stones', equipmentSlots: [] }];
out.untouchable = [
  stuckAt(30, [eye], quiver), stuckAt(30, [eye], spareOnly),
  stuckAt(30, [{ ...eye, appearance: 'gas spore' }], quiver), stuckAt(20, [{ ...eye, appearance: 'gas spore' }], quiver),
  stuckAt(20, [{ x: 10, y: 13, appearance: 'gas spore', attitude: 'hostile', distance: 3 }], spareOnly),
];
// Too weak for a gas spore's blast but with arrows: step back to two squares in line, then shoot.
const backFrom = (() => {
  const beginner = new CarefulBeginner();
  beginner.memory.level('d0-l4').explored = true;
  const frame = { basis: { turn: 900, levelId: 'd0-l4', sessionId: 's', viewId: 'v' },
    scene: { self: { position: { x: 10, y: 10 }, vitals: { hp: 20, hpMax: 40, hunger: 'not_hungry', condition: [] },
                     role: 'Ranger', race: 'human', level: {} },
             entities: [{ ...eye, appearance: 'gas spore' }], inventory: quiver, features: [], here: { terrain: 'corridor' },
             nearby: [{ x: 9, y: 9, direction: 'northwest', walkable: true, terrain: 'corridor' },
                      { x: 9, y: 10, direction: 'west', walkable: true, terrain: 'corridor' }] } };
  const step = beginner.next(frame, null).args;
  // A turn later, in a dark corridor, the spore is out of sight: it shoots where it was.
  const later = { ...frame, basis: { ...frame.basis, turn: 901 }, scene: { ...frame.scene, entities: [] } };
  return [step, beginner.next(later, null).args];
})();
out.sporeBack = [backFrom[0].mode, backFrom[0].target?.direction, backFrom[1].action, backFrom[1].direction];
// A pick-axe digs down when no way down was found; a few tries per level.
const digging = new CarefulBeginner();
const digLevel = digging.memory.level('d0-l4');
const pick = { inventory: [{ id: 'p', category: 'tool', label: 'a +2 pick-axe' }] };
out.digs = Array.from({ length: 7 }, () => digDown({ scene: pick, level: digLevel, base: {} })?.intent?.direction || null);
// A corpse is fresh only on the square of a recent kill of its kind (an older one lies elsewhere).
const diner = new CarefulBeginner();
diner.memory.kills.push({ name: 'gnome', turn: 2741, levelId: 'd0-l7', at: { x: 34, y: 9 } });
const corpseUnder = (x, y) => ({ memory: diner.memory, levelId: 'd0-l7', turn: 2760, hero: { x, y },
  self: { position: { x, y }, race: 'human', role: 'Barbarian', vitals: { hunger: 'not_hungry' } },
  scene: { here: { items: [{ label: 'a gnome corpse' }] } } });
// A kill is the frame's creatureDied event, with the square the corpse lies on.
const fast = new CarefulBeginner();
fast.observe({ basis: { turn: 3668, levelId: 'd0-l8' }, scene: { self: { position: { x: 14, y: 4 }, level: {} } },
               events: [{ type: 'creatureDied', levelId: 'd0-l8', x: 13, y: 3, turn: 3668, appearance: 'iguana' }] });
out.fastKill = fast.memory.kills[0].at;
out.corpseHere = [freshCorpseHere(corpseUnder(33, 8)), freshCorpseHere(corpseUnder(34, 9))];
// Shut in by known traps (seed 54 crossed a spiked pit into a nook): after three walks
// to unsearched walls found no route, it steps onto the adjacent trap.
const nook = new CarefulBeginner();
nook.memory.level('d0-l5').explored = true;
for (let i = 0; i < 3; i += 1) nook.afterLeg({ result: { stopReason: 'noRoute', why: 'disconnected' } }, 'freshSearch', 'd0-l5', 800);
const shutIn = { basis: { turn: 807, levelId: 'd0-l5', sessionId: 's', viewId: 'v' },
  scene: { self: { position: { x: 77, y: 3 }, vitals: { hp: 28, hpMax: 28, hunger: 'not_hungry', condition: [] },
                   role: 'Ranger', race: 'gnome', level: {} },
           entities: [], inventory: [{ id: 'f', category: 'food', label: 'a food ration' }], features: [], here: {},
           nearby: [{ x: 78, y: 3, direction: 'east', walkable: true, terrain: 'floor' },
                    { x: 78, y: 4, direction: 'southeast', walkable: true, terrain: 'floor', hazards: ['trap'] }] } };
const noSpots = { doors: [], deadEnds: [], searchSpots: [] };
// (as a server without plan wayOn answers: these cases hold the rules' own fallback: no pushes or fresh spots then)
const noWayOn = { unavailable: true };
const overTrap = nook.next(shutIn, noSpots, noWayOn);
out.overTrap = [overTrap.args.mode, overTrap.args.target?.direction];
// A whole round of searching found no way down on Dlvl 3: it goes up the stairs
// it came down by, avoids the way back down there, and takes another one.
const onLevel = (levelId, depth, at, features, dungeon = 'The Dungeons of Doom') => ({
  basis: { turn: 3000, levelId, sessionId: 's', viewId: 'v' },
  scene: { self: { position: at, vitals: { hp: 30, hpMax: 30, hunger: 'not_hungry', condition: [] },
                   role: 'Priest', race: 'human', level: { depth, dungeon } },
           entities: [], inventory: [{ id: 'f', category: 'food', label: 'a food ration' }], features, here: {}, nearby: [] } });
const giver = new CarefulBeginner();
const stuck = giver.memory.level('d0-l3');
Object.assign(stuck, { explored: true, searches: 40, calls: 900 });
const upstairs = [{ kind: 'stairsUp', x: 5, y: 5, distance: 0 }];
giver.observe(onLevel('d0-l3', 3, { x: 5, y: 5 }, upstairs));
const climb = giver.next(onLevel('d0-l3', 3, { x: 5, y: 5 }, upstairs), noSpots, noWayOn);
out.goesUp = [climb.args.mode, climb.args.direction, giver.memory.minesAccepted];
const above = [{ kind: 'stairsDown', x: 30, y: 10, distance: 0 }, { kind: 'stairsDown', x: 60, y: 3, distance: 30 }];
giver.observe(onLevel('d0-l2', 2, { x: 30, y: 10 }, above));
out.avoided = [...giver.memory.leadsBack.entries()];
out.explorersAbove = giver.next(onLevel('d0-l2', 2, { x: 30, y: 10 }, above), noSpots, noWayOn).args.mode;
Object.assign(giver.memory.level('d0-l2'), { explored: true, calls: 40 });
out.otherWayDown = giver.next(onLevel('d0-l2', 2, { x: 30, y: 10 }, above), noSpots, noWayOn).args.to;
// That other way is likely the Mines: with the next safe prayer 200 turns off, it waits for it.
giver.prayed(2200);
out.prayerInReserve = giver.next(onLevel('d0-l2', 2, { x: 30, y: 10 }, above), noSpots, noWayOn).args.action;
giver.memory.lastPrayer = null;
// With no other way down above (and no branch level higher up), it goes back
// down and searches the level it gave up afresh.
const back = giver.next(onLevel('d0-l2', 2, { x: 30, y: 10 }, [above[0]]), noSpots, noWayOn);
out.backDown = [back.args.action, giver.memory.leadsBack.size, stuck.searches, stuck.searched.size];
// Sokoban (entered by mistake on the way up) is left by its way down.
out.sokoban = giver.next(onLevel('d5-l1', 6, { x: 8, y: 8 }, [{ kind: 'stairsDown', x: 8, y: 8, distance: 0 }], 'Sokoban'), noSpots, noWayOn).args;
// Hurt in the Mines with a hostile in sight: back to the stairs up, and up them.
const mines = (at) => { const frame = onLevel('d2-l1', 3, at, [{ kind: 'stairsUp', x: 19, y: 16, distance: Math.max(Math.abs(at.x - 19), Math.abs(at.y - 16)) }],
  'The Gnomish Mines'); frame.scene.self.vitals.hp = 18;
  frame.scene.entities = [{ x: 30, y: 6, appearance: 'gnome lord', attitude: 'hostile', distance: 5 }]; return frame; };
const crowded = new CarefulBeginner();
crowded.memory.minesAccepted = true;
out.minesRefuge = [crowded.next(mines({ x: 25, y: 6 }), noSpots, noWayOn).args.to, crowded.next(mines({ x: 19, y: 16 }), noSpots, noWayOn).args.direction];
// A meal that passes no turn twice ("You can't do that while carrying so much
// stuff") is not asked for again and again: the food counts as out of reach.
const laden = new CarefulBeginner();
const hungryFrame = onLevel('d0-l4', 4, { x: 5, y: 5 }, []);
hungryFrame.scene.self.vitals.hunger = 'hungry';
out.meals = [0, 1, 2].map(() => laden.next(hungryFrame, noSpots, noWayOn).args.action === 'eat');
console.log(JSON.stringify(out));
"""


def rules() -> dict:
    ran = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    return json.loads(ran.stdout)


def test_the_beginner_rules() -> None:
    out = rules()
    # newt, partly eaten jackal: yes; kobold (poisonous), acid blob (acidic), little dog
    # (aggravates), werejackal (lycanthropy), bat (stuns): no; gnome for a human: yes.
    assert out["corpses"] == [True, True, False, False, True, False, False, False]
    assert out["gnomeEatsGnome"] is False
    assert out["monkMeat"] == [False, True, True]
    assert out["packFood"] == "i2"  # garlic, never the carried corpse
    # A plain helm for the empty slot; never random boots; body armour not over a cloak,
    # nor for a Monk; never shop goods.
    assert out["armour"] == ["helmet", None, None, "bodyArmor", None, None]
    assert out["toWear"] == "a"
    assert out["prayAnswers"] == [True, False]  # only when it meant to pray
    assert out["koboldMeal"] is False and out["otherCorpse"] is False
    assert out["unasked"] == {"cancel": True, "why": "nothing to type"}
    # First prayer from turn 150 (timeout 300 - 150 <= 200); then 1000 turns apart.
    assert out["safe"] == [False, True]
    assert out["afterPrayer"] == [False, True]
    assert out["afterGuilt"] is True  # a Monk's meat meal costs alignment, not the god's favour
    assert out["afterDispleasure"] is False
    assert out["starvingPrayer"] == [None, "pray"]
    assert out["faintingPrayer"] == [None, "pray"]
    assert out["stalled"] is True
    assert out["digs"] == ["down"] * 6 + [None]
    assert out["corpseHere"] == [None, "a gnome corpse"]
    assert out["fastKill"] == {"x": 13, "y": 3}
    assert out["overTrap"] == ["step", "southeast"]
    assert out["goesUp"] == ["climb", "up", True]
    assert out["avoided"] == [["d0-l2:30,10", "d0-l3"]]
    assert out["explorersAbove"] == "explore"  # what is left unexplored above comes first
    assert out["otherWayDown"] == {"x": 60, "y": 3}
    assert out["prayerInReserve"] == "search"
    assert out["backDown"] == ["search", 0, 0, 0]
    assert out["sokoban"]["mode"] == "climb" and out["sokoban"]["direction"] == "down"
    assert out["meals"] == [True, True, False]
    assert out["minesRefuge"] == [{"x": 19, "y": 16}, "up"]
    assert out["sporeBack"] == ["step", "west", "fire", "east"]  # 9,9 is not in line with the spore at 11,10
    assert out["untouchable"] == [
        ["fire", "east", None],  # the quiver first
        ["throw", "east", "f"],  # else a spare stone, never the wielded dagger
        ["attack", "east", None],  # a gas spore's 4d6 blast cannot kill 30 HP
        ["engrave", None, None],  # but could kill 20: Elbereth, until it drifts off
        ["throw", "south", "f"],  # and from three squares it is shot
    ]
