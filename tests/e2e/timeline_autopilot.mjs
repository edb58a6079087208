// timeline_autopilot.mjs - the reference autopilot playing one game into a given state directory
// (tests/e2e/test_server_timeline.py watches it live from another server's spectator):
//   node tests/e2e/timeline_autopilot.mjs <stateDir> <seed> <maxCalls>
// prints the game's ID as soon as it exists, then its summary as JSON.
import { McpToolClient } from '../../scripts/autopilot-mcp.mjs';
import { Autopilot } from '../../webmcp/autopilot/autopilot.js';

const [stateDir, seed, maxCalls] = process.argv.slice(2);
const client = await McpToolClient.connect({ stateDir });
try {
  const autopilot = new Autopilot({
    call: async (/** @type {string} */ name, /** @type {any} */ args) => {
      const frame = await client.call(name, args);
      if (name === 'session' && args.action === 'create') console.log(`game ${frame.basis.sessionId}`);
      return frame;
    },
  });
  const summary = await autopilot.playGame({ seed: Number(seed), maxCalls: Number(maxCalls) });
  console.log(JSON.stringify(summary));
} finally {
  await client.close();
}
