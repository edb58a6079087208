// index.js - the careful beginner's policy: an ordered table of rules, each
// `(context) -> move | null`; the first move wins. A move is
// {tool, args, why, intent?, leg?}, or {query: true} when the rules below
// need the level's plan (plan navigation) first.

import { armourMove } from './gear.js';
import { leaveSokoban, leaveTheMines, digOn, keepLeaving } from './branches.js';
import { fightAdjacent, hostileInTheWay } from './combat.js';
import { descendWhenReady, explore, needPlan } from './descent.js';
import { openDoors } from './doors.js';
import { checkFood, eatFreshCorpse, eatPackFood, pickUpFood } from './eating.js';
import { forceBolt, healerHeals } from './healing.js';
import { narrowGround } from './ground.js';
import { quaffHealing } from './potions.js';
import { archerWeapon, collectShots, fireAtHostile, pickUpShots, requiver } from './ranged.js';
import { prayInTrouble } from './prayer.js';
import { pushBoulders } from './pushing.js';
import { elberethRefuge, offElbereth, stairsRefuge, stepAway } from './refuge.js';
import { restWhenHurt } from './rest.js';
import { lightenToSqueeze } from './squeeze.js';
import { descendAnyway, endOfRound, passThroughOnTripUp, searchPlanSpots, searchWalls, tripOnOrBack } from './searching.js';
import { untouchableInTheWay } from './untouchable.js';
import { fightUnseen } from './unseen.js';
import { wieldAgain } from './weapon.js';
import { needWayOn, trapDoorDown } from './wayon.js';

/** @type {Array<[string, (ctx: any) => any]>} name and rule, in priority order */
export const RULES = [
  // 1. real trouble and a prayer likely safe; a Healer's own healing
  ['prayInTrouble', prayInTrouble],
  ['healerHeals', healerHeals],
  ['quaffHealing', quaffHealing],
  // 2. hurt with a threat near: the Mines' stairs up, Elbereth
  ['stairsRefuge', stairsRefuge],
  ['elberethRefuge', elberethRefuge],
  ['offElbereth', offElbereth], // done resting on it: off it before any attack (an attack from it costs alignment)
  // 3. a hostile adjacent: a Wizard's force bolt; missiles at one in line (an archer's launcher in hand first);
  //    a crowd met from a corridor or door square; else melee (never what must not be touched), an unseen attacker
  //    (an `I` beside a blind or hurt hero); hurt: step away
  ['forceBolt', forceBolt],
  ['wieldAgain', wieldAgain],
  ['archerWeapon', archerWeapon],
  ['requiver', requiver],
  ['fireAtHostile', fireAtHostile],
  ['narrowGround', narrowGround],
  ['fightAdjacent', fightAdjacent],
  ['fightUnseen', fightUnseen],
  ['stepAway', stepAway],
  // 4. food: pack food when hungry, fresh corpses when not satiated
  ['eatPackFood', eatPackFood],
  ['eatFreshCorpse', eatFreshCorpse],
  ['untouchableInTheWay', untouchableInTheWay],
  ['checkFood', checkFood],
  // 5. hurt or impaired with no threat near: rest
  ['restWhenHurt', restWhenHurt],
  // 6. food and plain armour underfoot or close by
  ['pickUpFood', pickUpFood],
  ['pickUpShots', pickUpShots],
  ['collectShots', collectShots],
  ['armourMove', armourMove],
  // 7. the level: places to leave, a dig or climb under way, a hostile in the way, a squeeze too heavy, down or explore
  ['leaveTheMines', leaveTheMines],
  ['leaveSokoban', leaveSokoban],
  ['digOn', digOn],
  ['keepLeaving', keepLeaving],
  ['hostileInTheWay', hostileInTheWay],
  ['lightenToSqueeze', lightenToSqueeze], // a squeeze refused for the load: drop what is never used, try again
  ['descendWhenReady', descendWhenReady],
  ['explore', explore],
  // 8. nothing left to explore: the plan's doors, boulders, search spots; then a round of searching
  ['needPlan', needPlan],
  ['openDoors', openDoors],
  ['needWayOn', needWayOn],
  ['trapDoorDown', trapDoorDown],
  ['pushBoulders', pushBoulders],
  ['passThroughOnTripUp', passThroughOnTripUp],
  ['searchPlanSpots', searchPlanSpots],
  ['descendAnyway', descendAnyway],
  ['tripOnOrBack', tripOnOrBack],
  ['searchWalls', searchWalls],
  ['endOfRound', endOfRound],
];

/** The first rule's move for this context, with the rule's name (`rule`). */
export function firstMove(ctx, rules = RULES) {
  for (const [name, rule] of rules) {
    const move = rule(ctx);
    if (move) return { ...move, rule: name };
  }
  throw new Error('no rule answered (endOfRound always does)');
}
