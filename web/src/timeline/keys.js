// keys.js - the timeline's keyboard: ← → one move, Home End, space plays or pauses (pure).
// Keys typed into a text field or a menu are theirs, not the timeline's; the
// scrubber (a range input) is the timeline's own, so its arrows step one move.

/** @typedef {{key: string, altKey?: boolean, ctrlKey?: boolean, metaKey?: boolean, targetTag?: string,
 *   targetType?: string}} KeyPress */

const TYPING = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

/** The timeline action for a key press, or null (the key is not ours).
 * @param {KeyPress} press
 * @returns {import('./playback.js').Action | null} */
export function keyAction(press) {
  if (press.altKey || press.ctrlKey || press.metaKey) return null;
  const tag = (press.targetTag || '').toUpperCase();
  if (TYPING.has(tag) && !(tag === 'INPUT' && press.targetType === 'range')) return null;
  if (tag === 'BUTTON' && press.key === ' ') return null; // a focused button's space presses the button
  switch (press.key) {
    case 'ArrowLeft': return { type: 'step', delta: -1 };
    case 'ArrowRight': return { type: 'step', delta: 1 };
    case 'Home': return { type: 'home' };
    case 'End': return { type: 'end' };
    case ' ': case 'Spacebar': return { type: 'toggle' };
    default: return null;
  }
}
