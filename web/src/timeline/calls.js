// calls.js - a game's moves grouped by the tool call that made them, and
// each call's facts from its stored receipt: what the move list shows.
//
// The page's twin of py/nethack_webmcp/watch/moves.py (call_label,
// call_facts): the same receipt gives the same label and facts in both
// languages, held equal by tests/watch/test_move_labels.py, which runs this
// module under Node on a real game's receipts. A receipt keeps the call as
// the agent wrote it ({tool, arguments}, nothing secret:
// py/nethack_webmcp/tools/calls.py); one stored before that (an old game's),
// or a call whose receipt is not stored yet, is labelled by its inputs'
// methods instead. Pure: no DOM, no storage (node --test calls.test.mjs).

/** request fields that bind an input or a call to a session and a view, not what it does */
export const BINDING = new Set(['sessionId', 'requestId', 'expectedRevision', 'viewId', 'decisionId']);
/** journal request fields that are transport, not the input */
const TRANSPORT = new Set([...BINDING, 'quiet']);
export const PRAYER_METHOD = 'game.pray';
/** characters of a call's label (an agent's long text argument is cut) */
export const LABEL_LIMIT = 200;
const METHOD_KINDS = 4;

/** The tool call as the agent wrote it: `travel {"to":"downstairs"}` (the
 *  binding fields left out, compact JSON); null when no call was kept.
 *  @param {any} call a receipt's `call`
 *  @returns {string | null} */
export function callLabel(call) {
  if (!call || typeof call !== 'object' || typeof call.tool !== 'string') return null;
  const given = call.arguments && typeof call.arguments === 'object' && !Array.isArray(call.arguments) ? call.arguments : {};
  const kept = Object.fromEntries(Object.entries(given).filter(([key]) => !BINDING.has(key)));
  const text = Object.keys(kept).length ? `${call.tool} ${JSON.stringify(kept)}` : call.tool;
  const characters = Array.from(text); // code points, as Python counts them
  return characters.length <= LABEL_LIMIT ? text : `${characters.slice(0, LABEL_LIMIT - 3).join('')}...`;
}

/** What a call ended with, from its receipt's frame (null: not stored yet).
 *  @param {any} receipt a stored ToolReceipt {requestId, frame, call?}
 *  @returns {{label: string | null, status: string | null, messages: string[], turn: number | null,
 *             depth: number | null, hp: number | null, hpMax: number | null, events: string[]}} */
export function callFacts(receipt) {
  if (!receipt) {
    return { label: null, status: null, messages: [], turn: null, depth: null, hp: null, hpMax: null, events: [] };
  }
  const frame = receipt.frame || {};
  const scene = frame.scene || {};
  const me = scene.self || {};
  const vitals = me.vitals || {};
  /** @type {any[]} */
  const events = Array.isArray(frame.events) ? frame.events : [];
  const messages = [];
  for (const event of events) {
    if (event && event.type === 'passage') messages.push((event.lines || []).map(String).join(' '));
    else if (event && typeof event.text === 'string') messages.push(event.text);
  }
  return {
    label: callLabel(receipt.call),
    status: (frame.outcome || {}).status ?? null,
    messages: messages.filter((text) => text.trim()),
    turn: (frame.basis || {}).turn ?? null,
    depth: (me.level || {}).depth ?? null,
    hp: vitals.hp ?? null,
    hpMax: vitals.hpMax ?? null,
    events: [...new Set(events.filter((event) => event && event.type).map((event) => String(event.type)))].sort(),
  };
}

/** Without a stored call: each kind of input once (a call of 40 steps west
 *  says it once), at most four kinds.
 *  @param {string[]} inputs */
export function methodLabel(inputs) {
  const kinds = [...new Set(inputs)];
  const more = kinds.length > METHOD_KINDS ? `; ... (${kinds.length - METHOD_KINDS} more kinds)` : '';
  return kinds.slice(0, METHOD_KINDS).join('; ') + more;
}

/** One journal input as text: its method and what it asked.
 *  @param {string} method
 *  @param {Record<string, any>} params */
function inputText(method, params) {
  return Object.keys(params).length ? `${method} ${JSON.stringify(params)}` : method;
}

/** The TimelineMoves (source.js) of moves from..to of a journal's completed
 *  inputs, each call one shared TimelineCall with its receipt's facts.
 *  @param {any[]} inputs the completed journal entries, move k = inputs[k - 1]
 *  @param {number} from
 *  @param {number} to
 *  @param {(operationId: string) => any} receiptOf the call's stored receipt, or null
 *  @returns {import('./source.js').TimelineMove[]} */
export function timelineMoves(inputs, from, to, receiptOf) {
  /** @type {Map<string, {call: any, inputs: string[]}>} */
  const calls = new Map();
  const moves = [];
  const first = Math.max(1, from);
  const last = Math.min(to, inputs.length);
  for (let move = first; move <= last; move++) {
    const entry = inputs[move - 1];
    const params = withoutTransport(entry);
    let made = calls.get(entry.operationId);
    if (!made) {
      // a call cut by `from` starts where the journal says it does, not at `from`
      let start = move;
      while (start > 1 && inputs[start - 2].operationId === entry.operationId) start--;
      made = { call: { id: entry.operationId, first: start, last: move }, inputs: [] };
      for (let earlier = start; earlier < move; earlier++) {
        made.inputs.push(inputText(inputs[earlier - 1].method, withoutTransport(inputs[earlier - 1])));
      }
      calls.set(entry.operationId, made);
    }
    made.call.last = move;
    made.inputs.push(inputText(entry.method, params));
    const receipt = entry.receipt || {};
    moves.push({ move, method: entry.method, params, revision: receipt.revision ?? null,
                 decision: receipt.decision ? receipt.decision.kind : null, ended: Boolean(receipt.ended),
                 call: made.call });
  }
  for (const made of calls.values()) {
    // the call's other inputs past `to` belong to it too
    while (made.call.last < inputs.length && inputs[made.call.last].operationId === made.call.id) {
      made.inputs.push(inputText(inputs[made.call.last].method, withoutTransport(inputs[made.call.last])));
      made.call.last++;
    }
    const facts = callFacts(receiptOf(made.call.id));
    const events = [...facts.events];
    if (made.inputs.some((text) => text.startsWith(PRAYER_METHOD))) events.push('prayed');
    Object.assign(made.call, facts, { label: facts.label ?? methodLabel(made.inputs), events });
  }
  return moves;
}

/** An input's arguments without the transport fields.
 *  @param {any} entry a journal entry
 *  @returns {Record<string, any>} */
function withoutTransport(entry) {
  return Object.fromEntries(Object.entries((entry.request || {}).params || {}).filter(([key]) => !TRANSPORT.has(key)));
}
