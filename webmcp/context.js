// context.js - the page's ModelContext: the browser's native WebMCP API when
// it has one (Chromium with --enable-features=WebMCP), else the
// @mcp-b/webmcp-polyfill implementation of the same API.
import { initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill';

/** {context, kind: 'native' | 'polyfill'} */
export function modelContext() {
  const native = document.modelContext;
  if (native && !native.__isWebMCPPolyfill) return { context: native, kind: 'native' };
  initializeWebMCPPolyfill();
  return { context: document.modelContext, kind: 'polyfill' };
}
