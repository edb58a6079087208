// declarations.js - the eleven tool declarations, as exported from Python
// (`python -m nethack_webmcp.tools.export`) at build time. The bundler maps
// the import to build/site/tools.json: the list is never copied by hand.
import catalog from 'nethack-webmcp-tools';

export const declarations = catalog.tools;
