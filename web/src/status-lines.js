// status-lines.js - NetHack's two tty status lines, built from the
// observation's vitals (the same lines the replay's terminal frames carry,
// py/nethack_webmcp/replay/tty.py), and the per-game tab title.
//
// "Zedor St:16 Dx:14 Co:17 In:8 Wi:10 Ch:9 Neutral"
// "Dlvl:9 $:120 HP:12(45) Pw:3(8) AC:4 Xp:6/460 T:2900 Hungry"

const capitalised = (text) => (text ? text[0].toUpperCase() + text.slice(1) : '');

/** The two status lines of `observation` for the hero `name`. */
export function statusLines(observation, name) {
  const v = observation.vitals || {};
  const q = (value) => (value === undefined || value === null ? '?' : String(value));
  const first = `${name || ''} St:${q(v.strength)} Dx:${q(v.dexterity)} Co:${q(v.constitution)} `
    + `In:${q(v.intelligence)} Wi:${q(v.wisdom)} Ch:${q(v.charisma)} ${capitalised(String(v.alignment || ''))}`;
  const conditions = [v.hungerLabel, v.burden && v.burden !== 'unencumbered' ? v.burdenLabel : null,
                      ...(v.condition || [])].filter(Boolean).join(' ');
  const second = `${observation.levelLabel || 'Dlvl:?'} $:${v.gold ?? 0} HP:${q(v.hp)}(${q(v.hpMax)}) `
    + `Pw:${q(v.energy)}(${q(v.energyMax)}) AC:${q(v.ac)} Xp:${q(v.level)}/${v.experience ?? 0} `
    + `T:${q(observation.turn)} ${conditions}`;
  return [first.trimEnd(), second.trimEnd()];
}

export const SITE_TITLE = 'NetHack for software agents';

/** "Zedor · Dlvl 9 · HP 12/45" (an ended game: "Zedor · died on Dlvl 9"). */
export function gameTitle(name, observation, ended, how) {
  const who = name || '(unnamed)';
  const v = (observation && observation.vitals) || {};
  const depth = observation && observation.depth !== undefined ? `Dlvl ${observation.depth}` : null;
  if (ended) return [who, `${how || 'ended'}${depth ? ` on ${depth}` : ''}`].join(' · ');
  return [who, depth, v.hp !== undefined ? `HP ${v.hp}/${v.hpMax}` : null].filter(Boolean).join(' · ');
}
