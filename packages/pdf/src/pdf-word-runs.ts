/**
 * Word layouts shared across documents. pdfkit lays a text out word by word and caches each
 * word's scaled run, but per document: every report scaled its words again (and asked fontkit
 * for them again). Here one cache of scaled runs per parsed face serves every document, and the
 * word splitting avoids pdfkit's per-character array tests and array copies; both give the very
 * runs, widths and glyph lists pdfkit's own code gives (pdfkit never changes a run once scaled).
 *
 * pdfkit does not export its font class, so its prototype is learnt from the first document a
 * renderer made, and the two methods are swapped only for the duration of each synchronous
 * layout and restored after, as `fontkit.create` is: nothing outside a render sees the change.
 * Until the class is learnt, or when it does not look as expected, pdfkit works its own way.
 */

/** A laid-out word as pdfkit keeps it (positions already scaled to 1000 units per em). */
interface ScaledRun {
  readonly glyphs: unknown[];
  readonly positions: unknown[];
  readonly advanceWidth: number;
}

/** The part of pdfkit's EmbeddedFont used here. */
interface EmbeddedFontLike {
  readonly font: object;
  readonly layoutCache?: Record<string, ScaledRun>;
  layoutRun(text: string, features?: unknown): ScaledRun;
  layoutCached(text: string): ScaledRun;
  layout(text: string, features?: unknown, onlyWidth?: boolean): unknown;
}

/** Scaled runs kept per face before the cache starts over (addresses and hashes are unique). */
const MAX_RUNS = 8_000;

/** Runs pdfkit layouts with word runs shared across documents. */
export interface WordRuns {
  /** Learns pdfkit's font class from a document laid out with the shared faces. */
  learn(document: unknown): void;
  /** Calls `layout` (synchronous) with the shared word runs in place. */
  during<T>(layout: () => T): T;
}

function isEmbeddedFont(value: unknown): value is EmbeddedFontLike {
  if (typeof value !== "object" || value === null) return false;
  const font = value as Partial<Record<keyof EmbeddedFontLike, unknown>>;
  return (
    typeof font.font === "object" &&
    typeof font.layoutRun === "function" &&
    typeof font.layoutCached === "function" &&
    typeof font.layout === "function"
  );
}

/** Word runs shared for the given parsed faces (the fontkit fonts handed to pdfkit). */
export function createWordRuns(faces: ReadonlyArray<object>): WordRuns {
  const runs = new Map<object, Map<string, ScaledRun>>(faces.map((f) => [f, new Map()]));
  let prototype: EmbeddedFontLike | null = null;

  function layoutCached(this: EmbeddedFontLike, text: string): ScaledRun {
    const own = this.layoutCache;
    if (own === undefined) return this.layoutRun(text);
    const cached = own[text];
    if (cached) return cached;
    const shared = runs.get(this.font);
    let run = shared?.get(text);
    if (run === undefined) {
      run = this.layoutRun(text);
      if (shared !== undefined) {
        if (shared.size >= MAX_RUNS) shared.clear();
        shared.set(text, run);
      }
    }
    own[text] = run;
    return run;
  }

  // pdfkit's split: a word runs up to and with the next space or tab; the last one to the end.
  function layout(this: EmbeddedFontLike, text: string, features?: unknown, onlyWidth?: boolean) {
    if (features) return this.layoutRun(text, features);
    const glyphs: unknown[] | null = onlyWidth ? null : [];
    const positions: unknown[] | null = onlyWidth ? null : [];
    let advanceWidth = 0;
    let last = 0;
    for (let index = 0; index <= text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code !== 32 && code !== 9 && !(index === text.length && last < index)) continue;
      const run = this.layoutCached(text.slice(last, index + 1));
      if (glyphs !== null && positions !== null) {
        for (const g of run.glyphs) glyphs.push(g);
        for (const p of run.positions) positions.push(p);
      }
      advanceWidth += run.advanceWidth;
      last = index + 1;
    }
    return { glyphs, positions, advanceWidth };
  }

  return {
    learn(document) {
      if (prototype !== null || typeof document !== "object" || document === null) return;
      const families = (document as { _fontFamilies?: unknown })._fontFamilies;
      if (typeof families !== "object" || families === null) return;
      const font = Object.values(families).find((f) => isEmbeddedFont(f) && runs.has(f.font));
      if (font !== undefined) prototype = Object.getPrototypeOf(font) as EmbeddedFontLike;
    },
    during(run) {
      const target = prototype;
      if (target === null) return run();
      const own = { layoutCached: target.layoutCached, layout: target.layout };
      Object.assign(target, { layoutCached, layout });
      try {
        return run();
      } finally {
        Object.assign(target, own);
      }
    },
  };
}
