// answers.js - how the autopilot answers a standing question: only after
// reading its prompt, and only in the way its own current intent calls for.
// A question it did not ask for and does not recognise is cancelled (ESC)
// when the game allows it, or declined; nothing is answered by default.

import { corpseName, safeCorpse } from './food.js';

/** @typedef {{value?: any, cancel?: boolean, why: string}} Answer {value, why} or {cancel: true, why} */

const END_SUMMARY = /(attributes|vanquished|genocided|conduct|overview|possessions identified)/;

/**
 * decision: the frame's standing decision; context: {intent, mayEat, race} (mayEat: not satiated).
 * intent is what the autopilot's last call meant to do (e.g. {kind:'pray'},
 * {kind:'eat'}, {kind:'pickup', pattern}). Returns {value, why} or
 * {cancel: true, why}; null when the question cannot be answered at all.
 * @param {import('./frame').Decision} decision
 * @param {{intent?: Record<string, any> | null, mayEat?: boolean, race?: string}} context
 * @returns {Answer | null}
 */
export function chooseAnswer(decision, context) {
  const prompt = String(decision.prompt || '').toLowerCase();
  /** @type {Record<string, any>} */
  const intent = context.intent || {};
  const cancel = (/** @type {string} */ why) => (decision.cancel ? { cancel: true, why } : null);
  switch (decision.kind) {
    case 'confirmation': {
      if (/really attack/.test(prompt)) return { value: false, why: 'never attack a peaceful creature' };
      if (/are you sure you want to pray/.test(prompt)) {
        return intent.kind === 'pray' ? { value: true, why: intent.why || 'in trouble and prayer should be safe' }
          : { value: false, why: 'the autopilot did not mean to pray' };
      }
      const corpse = /there (?:is|are) (.+?) here; eat (?:it|one)/.exec(prompt);
      if (corpse) {
        // Only the corpse the autopilot chose (a pile asks about each item in turn).
        const chosen = !intent.corpse || corpseName(intent.corpse) === corpseName(corpse[1]);
        const ok = intent.kind === 'eat' && chosen && context.mayEat && safeCorpse(corpse[1], context.race);
        return { value: Boolean(ok), why: ok ? `${corpse[1]} is fresh and safe to eat` : `not eating ${corpse[1]}` };
      }
      if (/add to the current engraving/.test(prompt) && intent.kind === 'engrave') {
        return { value: false, why: 'write a fresh Elbereth over what is there' };
      }
      if (intent.kind === 'trapDoor' && /really step|step onto|trap ?door|hole/.test(prompt)) {
        return { value: true, why: 'the trap door is the way down it meant to take' };
      }
      // Quivering a stack that is the alternate weapon (a Rogue's daggers): all but one go to the quiver.
      if (intent.kind === 'quiver' && /ready \d+ of them\?|ready (?:it|them) instead\?/.test(prompt)) {
        return { value: true, why: 'quiver the stack it meant to throw' };
      }
      if (/continue eating/.test(prompt)) return { value: false, why: 'stop eating rather than choke' };
      if (/no return|still climb|beware/.test(prompt)) return { value: false, why: 'do not leave the dungeon' };
      if (END_SUMMARY.test(prompt)) return { value: false, why: 'the end-of-game summary is not needed' };
      return cancel('an unexpected yes/no question: cancel it') || { value: false, why: 'an unexpected yes/no question: decline' };
    }
    case 'choice': {
      if (intent.kind === 'pickup' && intent.pattern) {
        const wanted = (decision.options || []).filter((option) => intent.pattern.test(String(option.label || option.name || ''))
          && !/for sale|unpaid|no charge/.test(String(option.label || option.name || '')));
        if (wanted.length) return { value: wanted.map((option) => option.id), why: 'pick up the food' };
      }
      const first = (decision.options || [])[0];
      if (END_SUMMARY.test(prompt)) return cancel('the end-of-game summary is not needed') || { value: [first.id], why: 'a summary must be dismissed' };
      return cancel('no menu choice is part of the plan')
        || { value: [first.id], why: 'a choice is required and cannot be cancelled: the first option' };
    }
    case 'item':
      if (intent.itemId) return { value: { itemId: intent.itemId }, why: 'the item the autopilot meant to use' };
      return cancel('no item is part of the plan') || { value: 'hands', why: 'an item is required: bare hands' };
    case 'direction':
      if (intent.direction) return { value: intent.direction, why: 'the direction the autopilot meant' };
      return cancel('no direction is part of the plan') || { value: 'self', why: 'a direction is required' };
    case 'text':
      if (intent.kind === 'engrave' && intent.text && /write|engrave|burn|scribble/.test(prompt)) {
        return { value: intent.text, why: 'the text the autopilot meant to write' };
      }
      return cancel('nothing to type') || { value: 'x', why: 'text is required' };
    case 'position':
      return cancel('no position is part of the plan') || { value: 'finish', why: 'accept the cursor position' };
    default:
      return cancel(`an unknown kind of question (${decision.kind})`);
  }
}
