/**
 * GraphSense TagPack YAML: a header (title, creator, currency, category, abuse, label, ...)
 * whose fields every entry of `tags:` inherits unless it sets its own. A pack is parsed whole
 * (packs are small: the largest public one is about 140 KB); each tag keeps its line for reports.
 */
import { isMap, isSeq, LineCounter, parseDocument } from "yaml";
import { readWhole, type TextFile, unreadable } from "./file-text.js";
import type { TagFields } from "./labels-rows.js";

/** A tag of a pack, with the line it starts on. */
export interface PackTag {
  readonly line: number;
  readonly tag: TagFields;
}

/** A scalar field as text ("" when absent or not a scalar). */
function scalar(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

/** A list field as texts. */
function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(scalar).filter((v) => v !== "");
  const one = scalar(value);
  return one === "" ? [] : [one];
}

/** The tags of a TagPack file, each with the pack's header fields filled in. */
export async function readTagPack(file: TextFile): Promise<PackTag[]> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(await readWhole(file), { lineCounter });
  const [error] = doc.errors;
  if (error) throw unreadable(file.path, `not valid YAML (${error.message})`, error);
  const root = doc.contents;
  const tagsNode = isMap(root) ? root.get("tags", true) : undefined;
  if (!isSeq(tagsNode)) throw unreadable(file.path, "not a TagPack (no tags: list)");
  const pack = doc.toJS() as Record<string, unknown>;
  const tags = Array.isArray(pack.tags) ? (pack.tags as unknown[]) : [];
  return tagsNode.items.map((node, index) => {
    const own = (tags[index] ?? {}) as Record<string, unknown>;
    const field = (name: string) => (name in own ? own[name] : pack[name]);
    const offset = (node as { range?: [number, number, number] }).range?.[0] ?? 0;
    return {
      line: lineCounter.linePos(offset).line,
      tag: {
        address: scalar(own.address),
        currency: scalar(field("currency")),
        label: scalar(field("label")),
        category: scalar(field("category")),
        abuse: scalar(field("abuse")),
        actor: scalar(field("actor")),
        concepts: list(field("concepts")),
      },
    };
  });
}
