// states.js - the states a game or its ownership can be in, each with one
// badge colour (styles.css .badge.<state>) and one label, used by every page
// so a state looks the same wherever it is shown.
//
//   live      in play, loaded in a tab        owner     this tab advances it
//   stored    in play, loaded in no tab       observer  another tab owns it
//   opening   being resumed in this tab       lost      another tab took it
//   ended     over (died, quit, escaped, …)   failed    cannot be played
/** @type {Record<string, string>} */
const LABELS = {
  live: 'live',
  stored: 'stored (not open in any tab)',
  opening: 'resuming',
  ended: 'ended',
  failed: 'failed',
  owner: 'owner',
  observer: 'observer',
  lost: 'lost',
};

/** The badge class of a state ("closed" is a game closed by its agent: stored).
 * @param {string} state
 * @returns {string} */
export function badgeState(state) {
  if (state === 'closed') return 'stored';
  return Object.hasOwn(LABELS, state) ? state : 'live';
}

/** The words shown for a state.
 * @param {string} state
 * @returns {string} */
export function stateLabel(state) {
  return LABELS[badgeState(state)];
}
