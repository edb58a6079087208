// register.js - register the tools with document.modelContext.registerTool.
//
// Each declaration (name, description, inputSchema, annotations: readOnlyHint,
// destructiveHint, idempotentHint, openWorldHint and the draft's
// untrustedContentHint) comes verbatim from the Python export; execute
// forwards the arguments to `call` (the core worker) and resolves with the
// DecisionFrame. Aborting `signal` unregisters every tool.

/** Register all tools; resolves when every registration is done. */
export async function registerTools(context, declarations, call, signal) {
  await Promise.all(declarations.map((declaration) => context.registerTool({
    name: declaration.name,
    description: declaration.description,
    inputSchema: declaration.inputSchema,
    annotations: declaration.annotations,
    execute: (args) => call(declaration.name, args ?? {}),
  }, { signal })));
}
