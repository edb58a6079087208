import { McpToolClient } from '/work/wt11/scripts/autopilot-mcp.mjs';
import { Autopilot } from '/work/wt11/webmcp/autopilot/autopilot.js';
const client = await McpToolClient.connect();
let last = '';
const a = new Autopilot(client, (s) => { if (s.note !== last) { last = s.note; console.log(s.turn, s.deepest, s.note); } });
const s = await a.playGame({ seed: Number(process.argv[2]), maxCalls: Number(process.argv[3]) });
console.log(JSON.stringify(s));
await client.close();
