// build-aliases.d.ts - the modules esbuild maps at build time (scripts/build-site
// --alias), typed for tsc: their contents are generated, never in the tree.
declare module 'nethack-site-config' {
  const config: any;
  export default config;
}
declare module 'nethack-webmcp-tools' {
  const catalog: any;
  export default catalog;
}
