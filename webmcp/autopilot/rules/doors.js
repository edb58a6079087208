// doors.js - closed doors from the plan (with their approach squares and
// what the game said of their locks): walk there, open; kick only a door
// the game called locked, and never one with writing before it (a shop
// "Closed for inventory": kicking its door in makes the shopkeeper deadly),
// nor on a level where the town watch was seen (seed 11049's Archeologist
// kicked a locked Minetown door in: "Halt, thief!  You're under arrest!",
// and the watch killed it).

const DOOR_TRIES = 8; // opens (a stuck door resists a few), or kicks once it is known locked

export function openDoors(ctx) {
  const { level, hero, plan } = ctx;
  const door = (plan.doors || []).find((entry) => entry.state === 'closed' && entry.distance !== null
    && (level.doorTries.get(`${entry.x},${entry.y}`) || 0)
      < (entry.approach && level.writingAt.has(`${entry.approach.x},${entry.approach.y}`) ? 2 : DOOR_TRIES)
    && ((level.doorWalks.get(`${entry.x},${entry.y}`) || 0) < 4
        || (entry.approach && entry.approach.x === hero.x && entry.approach.y === hero.y)));
  if (!door) return null;
  const key = `${door.x},${door.y}`;
  if (hero.x !== door.approach.x || hero.y !== door.approach.y) {
    level.doorWalks.set(key, (level.doorWalks.get(key) || 0) + 1);
    return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: door.approach, maxActions: 120 },
             why: `walk to the closed door at ${key}`, leg: 'to' };
  }
  const tries = (level.doorTries.get(key) || 0) + 1;
  level.doorTries.set(key, tries);
  // A stuck door ("The door resists!") opens with another try.
  const locked = door.lock && door.lock.state === 'locked';
  const action = locked && !level.watched && !level.writingAt.has(`${door.approach.x},${door.approach.y}`) ? 'kick' : 'open';
  level.explored = false; // what lies behind it is new
  return { tool: 'interact', args: { ...ctx.base, action, target: { direction: door.direction } },
           why: `${action} the ${locked ? 'locked ' : ''}door at ${key} (try ${tries})`, intent: { direction: door.direction } };
}
