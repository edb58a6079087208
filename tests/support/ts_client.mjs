// ts_client.mjs - the MCP TypeScript SDK as an independent client of our servers, for the tests.
//
//   node tests/support/ts_client.mjs <v1|v2> <stdio STATE_DIR | http URL>
//
// v1 is @modelcontextprotocol/sdk (1.x, the handshake era; the site's package.json pins it),
// v2 is @modelcontextprotocol/client (2.x) pinned to the 2026-07-28 revision (no fallback);
// its install directory (tests/support/inspector.py installs it) comes in $NNH_TS_CLIENT_DIR.
// It lists the tools, creates a game and takes three steps, then prints one JSON line:
// {era, protocolVersion, tools, revisions, refused} for the Python test to check.
import { createRequire } from 'node:module';

const [flavour, transportKind, target] = process.argv.slice(2);

async function sdk() {
  if (flavour === 'v1') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return { Client, StdioClientTransport, StreamableHTTPClientTransport, options: {} };
  }
  const require = createRequire(`${process.env.NNH_TS_CLIENT_DIR}/package.json`);
  const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');
  const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');
  return {
    Client, StdioClientTransport, StreamableHTTPClientTransport,
    options: { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  };
}

const { Client, StdioClientTransport, StreamableHTTPClientTransport, options } = await sdk();
const transport = transportKind === 'stdio'
  ? new StdioClientTransport({
    command: process.env.PYTHON || 'python3',
    args: ['-m', 'nethack_webmcp.mcp', '--no-spectator'],
    env: { ...process.env, NNH_STATE_DIR: target },
    stderr: 'inherit',
  })
  : new StreamableHTTPClientTransport(new URL(target));
const client = new Client({ name: `nethack-webmcp-tests-${flavour}`, version: '1' }, options);
await client.connect(transport);
try {
  const era = client.getProtocolEra ? client.getProtocolEra() : 'legacy';
  const protocolVersion = client.getNegotiatedProtocolVersion ? client.getNegotiatedProtocolVersion() : undefined;
  const { tools } = await client.listTools();
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    return { frame: result.structuredContent, isError: result.isError === true };
  };
  const created = await call('session', { action: 'create', seed: 42 });
  if (created.isError) throw new Error(JSON.stringify(created.frame.error));
  const token = created.frame.result.controlToken;
  let frame = created.frame;
  const revisions = [frame.basis.revision];
  let refused = null;
  for (const direction of ['east', 'west', 'east']) {
    const step = {
      sessionId: frame.basis.sessionId, viewId: frame.basis.viewId, mode: 'step', target: { direction },
      ...(token ? { controlToken: token } : {}),
    };
    const moved = await call('travel', step);
    if (refused === null) {
      // the same view again: refused as stale, with nothing sent
      refused = (await call('travel', step)).frame.error?.code ?? null;
    }
    frame = moved.frame;
    revisions.push(frame.basis.revision);
  }
  process.stdout.write(`${JSON.stringify({ era, protocolVersion, tools: tools.map((tool) => tool.name), revisions, refused })}\n`);
} finally {
  await client.close();
}
