// vocabulary.js - the protocol's words for the page and the autopilot, as the
// build exported them (scripts/build-site: `python -m nethack_webmcp.tools.export
// --vocabulary` > build/site/vocabulary.json; package.json maps #vocabulary to it,
// for esbuild and for Node alike). The engine's words are protocol.describe's;
// none is typed here by hand.
import vocabulary from '#vocabulary' with { type: 'json' };

/** The compass in the driver's order (also the tie-break order): [name, dx, dy], y growing southward.
 *  @type {ReadonlyArray<[string, number, number]>} */
export const COMPASS = vocabulary.engine.compass.map(({ name, dx, dy }) => [name, dx, dy]);

/** Error codes a client recovers from by reading the game again (py/nethack_webmcp/tools/error_codes.py).
 *  @type {ReadonlySet<string>} */
export const RECOVERABLE_ERRORS = new Set(vocabulary.adapter.recoverableErrors);
