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

/** A favicon badge for the game on show: a dot coloured by the hero's HP
 *  (green, amber under half, red under a quarter, grey once ended), as an
 *  SVG data URL (the page's CSP allows data: images). */
export function faviconBadge(observation, ended) {
  const v = (observation && observation.vitals) || {};
  const share = v.hpMax ? v.hp / v.hpMax : 1;
  const colour = ended ? '#8a96a3' : share < 0.25 ? '#e53935' : share < 0.5 ? '#ffb300' : '#43a047';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${colour}"/></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** Point the page's icon link at `href` ('data:,' is the site's empty icon). */
export function setFavicon(href) {
  const link = document.querySelector('link[rel=icon]');
  if (link) link.setAttribute('href', href);
}
