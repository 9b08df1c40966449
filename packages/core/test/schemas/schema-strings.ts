/**
 * The string positions of a request schema, for tests that put a value in each of them (the
 * wire-text rule in core, the unstorable-text suite over HTTP).
 */
import { z } from "zod";

type JsonNode = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonNode[];
  properties?: Record<string, JsonNode>;
  items?: JsonNode;
};

/** A string position of a schema's input: its path and whether only listed values are allowed. */
export interface StringLeaf {
  readonly path: ReadonlyArray<string | number>;
  readonly enumerated: boolean;
}

const isString = (n: JsonNode) => n.type === "string" || (Array.isArray(n.type) && n.type.includes("string"));

/** Every string position of the input side of `schema` (arrays through their first item). */
export function stringLeaves(schema: z.ZodType): StringLeaf[] {
  const out: StringLeaf[] = [];
  const walk = (node: JsonNode, path: ReadonlyArray<string | number>) => {
    const branches = [node, ...(node.anyOf ?? [])];
    const leaf = branches.find(isString);
    if (leaf) out.push({ path, enumerated: leaf.enum !== undefined });
    for (const branch of branches) {
      for (const [name, child] of Object.entries(branch.properties ?? {})) walk(child, [...path, name]);
      if (branch.items) walk(branch.items, [...path, 0]);
    }
  };
  walk(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonNode, []);
  return out;
}

/** An object holding `value` at `path` (arrays for numeric steps), nothing else. */
export function placed(path: ReadonlyArray<string | number>, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const inner = placed(rest, value);
  return typeof head === "number" ? [inner] : { [head]: inner };
}
