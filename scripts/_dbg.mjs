import { McpToolClient } from '/work/wt11/scripts/autopilot-mcp.mjs';
import { Autopilot } from '/work/wt11/webmcp/autopilot/autopilot.js';
const client = await McpToolClient.connect();
let last = '';
const wrapped = { async call(n, a) { const f = await client.call(n, a); if (process.env.EV) console.log("   ", n, JSON.stringify(a).slice(0,120), "->", (f.events||[]).map(e=>e.text).join(" | ").slice(0,200), f.result && f.result.stopReason || "", f.error ? f.error.code : ""); return f; } };
const a = new Autopilot(wrapped, (s) => { if (s.note !== last) { last = s.note; console.log(s.turn, s.deepest, s.note); } });
const s = await a.playGame({ seed: Number(process.argv[2]), maxCalls: Number(process.argv[3]) });
console.log(JSON.stringify(s));
await client.close();
