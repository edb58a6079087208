// client.js - the agent side of WebMCP, for agents that live in the page
// (the autopilot): discover the registered tools and call them through
// document.modelContext, exactly as an outside agent does. Works on the
// native API and on the polyfill (both offer getTools and executeTool).

export class ToolClient {
  constructor(context) {
    this.context = context;
    this.tools = null;
    this.inputAsText = null; // unknown until the first call
  }

  /** The registered tools, as the browser reports them. */
  async list() {
    this.tools = await this.context.getTools();
    return this.tools;
  }

  /** Call a tool by name; resolves with its result (the frame). */
  async call(name, args) {
    if (!this.tools) await this.list();
    let tool = this.tools.find((candidate) => candidate.name === name);
    if (!tool) {
      await this.list();
      tool = this.tools.find((candidate) => candidate.name === name);
      if (!tool) throw new Error(`no WebMCP tool named ${name}`);
    }
    const result = await this.execute(tool, args ?? {});
    return typeof result === 'string' ? JSON.parse(result) : result;
  }

  // Chromium's native executeTool takes the input object; the polyfill (like
  // Chromium's earlier preview) takes it as JSON text and says "Failed to
  // parse input" otherwise. Learn which one this context wants, once.
  async execute(tool, args) {
    if (this.inputAsText) return this.context.executeTool(tool, JSON.stringify(args));
    try {
      const result = await this.context.executeTool(tool, args);
      this.inputAsText = false;
      return result;
    } catch (error) {
      if (this.inputAsText === false || !/Failed to parse input/i.test(String(error && error.message))) throw error;
      this.inputAsText = true;
      return this.context.executeTool(tool, JSON.stringify(args));
    }
  }
}
