// frame.d.ts - the parts of a DecisionFrame the autopilot reads, as JSDoc
// types for tsc (tsconfig.pure.json). The frame's definition is its JSON
// Schema (`python -m nethack_webmcp.tools.export --frame-schema`, served as
// decision-frame.schema.json); these names only let the rules' JSDoc say
// which part of it a function takes. Deeper parts stay loosely typed.

export interface Position { x: number; y: number }
export interface Bounds { x0: number; x1: number; y0: number; y1: number }

/** scene.map: the map text (two ruler lines, then "yy " and the marks from x0). */
export interface MapView {
  text?: string;
  bounds?: Bounds;
  legend?: Record<string, string>;
  symbols?: Record<string, Array<[number, number]>>;
  [key: string]: any;
}

/** One carried item (scene.inventory) or one item on the square (scene.here.items). */
export interface Item {
  id: string;
  label: string;
  category: string;
  letter?: string;
  quantity?: number;
  equipmentSlots?: string[];
}

export interface Scene {
  self: { position: Position; role?: string; race?: string; name?: string; vitals?: any; level?: any };
  map?: MapView | null;
  inventory?: Item[] | null;
  [key: string]: any;
}

/** frame.decision: a standing question. */
export interface Decision {
  id?: string;
  kind: string;
  prompt?: string;
  options?: Array<{ id: string; label?: string; name?: string; [key: string]: any }>;
  reply?: any;
  cancel?: any;
}

export interface Frame {
  basis?: any;
  control?: any;
  outcome?: any;
  scene?: Scene | any;
  decision?: Decision | null;
  events?: any[];
  result?: any;
  error?: { code: string; message: string; field?: string; operationId?: string };
  [key: string]: any;
}

/** A tool call the autopilot makes: the tool's name and its arguments. */
export interface Call { tool: string; args: Record<string, any> }
