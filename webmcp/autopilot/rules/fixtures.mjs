// fixtures.mjs - real DecisionFrames for the rules' tests, recorded from
// autopilot games through the stdio MCP server (clock 2026-01-10 12:00 UTC):
//   monk-lichen-killed       seed 3, call 46: the Monk's attack killed a lichen to the northeast (creatureDied 22,16)
//   monk-on-lichen-corpse    seed 3, call 47: the walk onto that corpse; it lies underfoot with a food ration
//   monk-attacked-by-kobold  seed 3, call 33: an explore leg stopped `attacked` ("The kobold misses!"), the kobold adjacent
//   monk-kobold-lord-in-the-way  seed 3, call 92: an explore leg stopped noFrontier, why creatureInTheWay (blockedBy 20,6)
//   ranger-start             seed 16, call 1: a Ranger's first frame (dagger wielded, bolts quivered, cloak worn)
//   caveman-squeeze-too-heavy  seed 1023, call 29: an explore leg stopped blocked, why squeezeTooHeavy (24 rocks carried)
// Each call returns a fresh copy, so a test may change a vital or two.
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';

export function frame(name) {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}
