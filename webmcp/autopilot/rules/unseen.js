// unseen.js - fight what attacks a hero who cannot see it. Blind, the hero
// either senses creatures (telepathy: `scene.entities` lists them with no
// `attitude`, which only sight discloses) or is left an `I` where something
// hit it (mhitu.c's map_invisible: `scene.nearby` shows an occupant of kind
// `unseen`). The rules' hostiles are the ones whose attitude is `hostile`,
// so without this a blind hero "waits it out" beside a kitten biting it to
// death. A stale `I` (the creature moved on) costs one turn and the attack
// clears it.

/** A creature beside the hero whose attitude the frame does not disclose, in the frame that says it was attacked. */
function unknownAttacker(ctx) {
  if (!(ctx.frame.events || []).some((event) => event.type === 'attacked')) return null;
  return (ctx.scene.entities || []).find((entity) => entity.distance === 1 && entity.direction && !entity.attitude) || null;
}

export function fightUnseen(ctx) {
  const { vitals } = ctx;
  const blind = ctx.conditions.includes('blind');
  if (!blind && vitals.hp >= vitals.hpMax) return null; // unhurt and seeing: an old mark, nothing attacks
  const cell = (ctx.scene.nearby || []).find((entry) => entry.direction && entry.occupant && entry.occupant.kind === 'unseen');
  const sensed = cell ? null : unknownAttacker(ctx);
  const direction = cell ? cell.direction : sensed && sensed.direction;
  if (!direction) return null;
  const what = sensed ? `the ${sensed.appearance || 'creature'} sensed` : 'the unseen creature';
  return { tool: 'interact', args: { ...ctx.base, action: 'attack', target: { direction } },
           why: `${blind ? 'blind' : `HP ${vitals.hp}/${vitals.hpMax}`} and attacked: attack ${what} to the ${direction}` };
}
