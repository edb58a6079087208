// page-globals.d.ts - what the pages add to the browser's globals, typed for
// tsc: the read-only facts and test hooks they expose on window (web/src/main.js,
// web/src/server/main.js) and WebMCP's document.modelContext (native or the
// polyfill's; webmcp/context.js), typed loosely: the page only passes it on.
export {};

declare global {
  interface Window {
    nethackSite: Record<string, any>;
    nethackTest?: Record<string, any>;
    nethackReplay?: Record<string, (...args: any[]) => Promise<any>>;
    nethackSpectator?: unknown;
  }
  interface Document {
    modelContext?: any;
  }
  /** set by the e2e tests before the page's scripts run (web/src/main.js) */
  var __NETHACK_TEST_HOOKS__: boolean | undefined;
  var __NETHACK_TEST_WITHOUT_JSPI__: boolean | undefined;
}
