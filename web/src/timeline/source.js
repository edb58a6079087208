// source.js - the data-source interface the timeline widget (timeline.js)
// reads a game through. One widget, two sources: the native server's
// spectator (server-source.js: GET /api/games/<id>/moves and /frames/<k>)
// and the page (the page's replay engine in its worker). docs/REPLAY.md,
// "The timeline widget", says the same in prose.
//
// A *move* is one completed journal input; move 0 is the game just created,
// move k the game after its k-th input. Moves are numbered 1..moveCount();
// frames exist for 0..moveCount().

/**
 * One tool call: the inputs it made are moves first..last.
 * @typedef {object} TimelineCall
 * @property {string} id          the operation's ID (its requestId when the agent gave one)
 * @property {number} first       its first move
 * @property {number} last        its last move
 * @property {string} label       the call as the agent wrote it, `travel {"to":"downstairs"}` (binding fields left
 *                                out; timeline/calls.js); without a stored call (an old game's receipt, or not
 *                                stored yet) its inputs' methods and arguments
 * @property {string | null} status   the outcome (accepted, rejected, interrupted, ended, ...), when known
 * @property {string[]} messages  what the game said during the call, in order
 * @property {number | null} turn     game turn after the call
 * @property {number | null} depth    Dlvl after the call
 * @property {number | null} hp
 * @property {number | null} hpMax
 * @property {string[]} events    the call's event types (e.g. "killed", "prayed"), for markers
 */

/**
 * One move (journal input).
 * @typedef {object} TimelineMove
 * @property {number} move        1..moveCount()
 * @property {string} method      the input's low method (game.move, decision.answer, ...)
 * @property {object} params      its arguments, without the session ID
 * @property {number} revision    the revision it reached
 * @property {string | null} decision   the kind of question standing after it, if any
 * @property {boolean} ended      whether the game ended with it
 * @property {TimelineCall} call  the tool call that made it (the same object for every move of the call)
 */

/**
 * What the game showed at one move. `rows` are the 21 map rows (y 0..20) as
 * the player saw them; `exact` is false when the source only has a nearby
 * frame (a live game's intermediate inputs: receipts are per tool call, so
 * the frame shown is the one its call ended with).
 * @typedef {object} TimelineFrame
 * @property {number} move
 * @property {boolean} exact
 * @property {string[]} rows
 * @property {string} message     the last message line
 * @property {[string, string]} status   NetHack's two status lines
 * @property {number | null} turn
 * @property {number | null} depth
 * @property {number | null} hp
 * @property {number | null} hpMax
 * @property {{kind: string, prompt: string} | null} decision
 * @property {boolean} ended
 */

/**
 * The interface. Everything a source returns is game text: the widget sets
 * it with textContent only.
 * @typedef {object} TimelineSource
 * @property {boolean} live                     more moves may still come (false once the game ended)
 * @property {() => number} moveCount           moves known now
 * @property {(from: number, to: number) => Promise<TimelineMove[]>} moves
 *           moves from..to inclusive (1 <= from <= to <= moveCount())
 * @property {(move: number) => Promise<TimelineFrame>} frameAt
 *           the frame at a move (0..moveCount()); rejects with an Error whose message says why
 *           (a replay that diverged, a tampered journal: never a wrong frame)
 * @property {(listener: (count: number) => void) => () => void} onAppend
 *           listener(count) whenever moves were added (and once `live` turns false); returns unsubscribe
 * @property {() => void} close                 stop following the game
 */

export {};
