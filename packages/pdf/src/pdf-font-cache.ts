/**
 * Fonts parsed once per renderer instead of once per document. pdfkit parses every font it is
 * given with fontkit (tables, glyphs) and shapes every word again in each new document; for a
 * two-page report that is most of the render time. This keeps one parsed font per face and a
 * bounded cache of shaped words, and hands them to pdfkit only while a document is being laid
 * out: `fontkit.create` is swapped for the duration of that synchronous call and restored after,
 * so nothing outside a render sees the change. The shared fonts also write their subsets the
 * fast way (`pdf-font-subset.ts`), and pdfkit's scaled word runs are shared across documents
 * (`pdf-word-runs.ts`). When fontkit cannot be reached the renderer works the slow way.
 */
import { createRequire } from "node:module";
import {
  type EncodeStreamLike,
  subsetWriter,
  type TrueTypeFontLike,
  useSubsetWriter,
} from "./pdf-font-subset.js";
import { createWordRuns } from "./pdf-word-runs.js";

/** The part of fontkit used here. */
interface FontkitLike {
  create(buffer: Buffer, postscriptName?: string): FontLike;
}

/** The part of a fontkit font used here. */
interface FontLike {
  layout(text: string, ...rest: unknown[]): RunLike;
}

/** A shaped run: pdfkit scales `positions` in place, so each caller gets its own copy. */
interface RunLike {
  positions: object[];
}

/** Shaped words kept per face before the cache starts over (addresses and hashes are unique). */
const MAX_WORDS = 4_000;

/** Runs pdfkit layouts with the shared fonts. */
export interface FontCache {
  /** Calls `layout` (synchronous) with the renderer's fonts served parsed and shaped. */
  during<T>(layout: () => T): T;
  /** Shows the cache a document `during` made, so later layouts can share its word runs. */
  learn(document: unknown): void;
}

/** pdfkit's fontkit, and the EncodeStream of fontkit's restructure (null when not found). */
interface Modules {
  readonly fontkit: FontkitLike;
  readonly newStream: (() => EncodeStreamLike) | null;
}

function loadModules(): Modules | null {
  try {
    const fromPdf = createRequire(import.meta.url);
    const fromPdfmake = createRequire(fromPdf.resolve("pdfmake"));
    const fromPdfkit = createRequire(fromPdfmake.resolve("@foliojs-fork/pdfkit"));
    const fontkit = fromPdfkit("@foliojs-fork/fontkit") as FontkitLike;
    if (typeof fontkit.create !== "function") return null;
    return {
      fontkit,
      newStream: loadEncodeStream(createRequire(fromPdfkit.resolve("@foliojs-fork/fontkit"))),
    };
  } catch {
    return null;
  }
}

function loadEncodeStream(fromFontkit: NodeJS.Require): (() => EncodeStreamLike) | null {
  try {
    const { EncodeStream } = fromFontkit("@foliojs-fork/restructure") as {
      EncodeStream?: new () => EncodeStreamLike;
    };
    return typeof EncodeStream === "function" ? () => new EncodeStream() : null;
  } catch {
    return null;
  }
}

/** The face with its subsets written the fast way, when it is a face that can be. */
function withFastSubsets(font: FontLike, newStream: (() => EncodeStreamLike) | null): FontLike {
  if (newStream === null) return font;
  const trueType = font as unknown as TrueTypeFontLike;
  try {
    const write = subsetWriter(trueType, newStream);
    if (write !== null) useSubsetWriter(trueType, write);
  } catch {
    // A face fontkit parses differently than expected keeps fontkit's own subsets.
  }
  return font;
}

function copyRun<R extends RunLike>(run: R): R {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(run)), run) as R;
  copy.positions = run.positions.map((p) => Object.assign(Object.create(Object.getPrototypeOf(p)), p));
  return copy;
}

/** A font whose plain layouts (no user features) are cached by text. */
function withShapedWords(font: FontLike): FontLike {
  const layout = font.layout.bind(font);
  const words = new Map<string, RunLike>();
  font.layout = (text: string, ...rest: unknown[]) => {
    if (rest.some((r) => r !== undefined)) return layout(text, ...rest);
    let run = words.get(text);
    if (run === undefined) {
      if (words.size >= MAX_WORDS) words.clear();
      run = layout(text);
      words.set(text, run);
    }
    return copyRun(run);
  };
  return font;
}

/** A cache for the given face buffers (the very Buffers handed to the pdfmake printer). */
export function createFontCache(faces: ReadonlyArray<Buffer>): FontCache {
  const modules = loadModules();
  if (modules === null) return { during: (layout) => layout(), learn: () => {} };
  const { fontkit, newStream } = modules;
  const original = fontkit.create;
  const parsed = new Map<Buffer, FontLike>(
    faces.map((b) => [b, withShapedWords(withFastSubsets(original.call(fontkit, b), newStream))]),
  );
  const words = createWordRuns([...parsed.values()]);
  return {
    during(layout) {
      const outer = fontkit.create;
      fontkit.create = (buffer, name) => parsed.get(buffer) ?? outer.call(fontkit, buffer, name);
      try {
        return words.during(layout);
      } finally {
        fontkit.create = outer;
      }
    },
    learn: words.learn,
  };
}
