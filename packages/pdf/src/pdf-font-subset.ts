/**
 * Font subsets written faster, byte for byte as fontkit writes them. pdfkit embeds in every PDF a
 * TrueType subset of each face it used, and fontkit builds that file anew each time: it decodes
 * every glyph again and encodes every table, the unchanging ones (cvt, prep, fpgm, head) too,
 * value by value; that was a sixth of a report's render time. Here, per parsed face, the tables
 * that do not depend on the glyphs are taken once from fontkit's own encoding of a one-glyph
 * subset, each glyph's outline and metrics are read once, and a subset is assembled from them
 * with plain buffer writes in the order, layout and values fontkit uses (table directory with
 * zero checksums, tables in fontkit's order, no padding). Fonts this does not know how to write
 * (CFF outlines, variable fonts) keep fontkit's own subsets.
 */

/** The part of a fontkit subset used here. */
export interface SubsetLike {
  readonly glyphs: number[];
  includeGlyph(glyph: number): number;
  encode(stream: EncodeStreamLike): void;
}

/** The part of restructure's EncodeStream used here. */
export interface EncodeStreamLike {
  writeBuffer(buffer: Buffer): void;
  end(): void;
  read(): Buffer | null;
}

/** A composite glyph's reference to another glyph: its id and where the id sits in the outline. */
interface ComponentLike {
  readonly glyphID: number;
  readonly pos: number;
}

/** The part of a fontkit glyph used here. */
interface GlyphLike {
  readonly advanceWidth: number;
  _decode(): { readonly numberOfContours: number; readonly components?: ComponentLike[] } | null;
  _getMetrics(): { readonly leftBearing: number };
}

/** The part of a fontkit TrueType font used here. */
export interface TrueTypeFontLike {
  createSubset(): SubsetLike;
  getGlyph(id: number): GlyphLike;
  readonly loca: { readonly offsets: ReadonlyArray<number>; readonly version: number };
  readonly directory: { readonly tables: Readonly<Record<string, unknown>> };
  readonly _variationProcessor?: unknown;
  _getTableStream(tag: string): { pos: number; readBuffer(length: number): Buffer } | null;
}

/** What a subset needs of one glyph of the full font. */
interface GlyphData {
  readonly outline: Buffer;
  readonly advance: number;
  readonly bearing: number;
  readonly components: ReadonlyArray<ComponentLike>;
}

/** Largest glyf offset a short (version 0) loca table can hold. */
const SHORT_LOCA_LIMIT = 0x1fffe;

/** The tables of a TrueType file fontkit wrote, by tag, in the file's order. */
function tablesOf(file: Buffer): Map<string, Buffer> {
  const tables = new Map<string, Buffer>();
  const count = file.readUInt16BE(4);
  for (let i = 0; i < count; i += 1) {
    const entry = 12 + i * 16;
    const tag = file.toString("latin1", entry, entry + 4);
    const offset = file.readUInt32BE(entry + 8);
    tables.set(tag, file.subarray(offset, offset + file.readUInt32BE(entry + 12)));
  }
  return tables;
}

function glyphDataOf(font: TrueTypeFontLike, id: number): GlyphData {
  const glyph = font.getGlyph(id);
  const decoded = glyph._decode();
  const start = font.loca.offsets[id] ?? 0;
  const end = font.loca.offsets[id + 1] ?? start;
  const stream = font._getTableStream("glyf");
  if (stream === null) throw new Error("the font has no glyf table");
  stream.pos += start;
  const outline = stream.readBuffer(end - start);
  const components =
    decoded !== null && decoded.numberOfContours < 0
      ? (decoded.components ?? []).map((c) => ({ glyphID: c.glyphID, pos: c.pos }))
      : [];
  return { outline, advance: glyph.advanceWidth, bearing: glyph._getMetrics().leftBearing, components };
}

/** The table directory fontkit writes: tag `true`, zero checksums, tables back to back. */
function directory(tables: ReadonlyArray<readonly [string, Buffer]>): Buffer {
  const count = tables.length;
  const power = 2 ** Math.floor(Math.log(count) / Math.LN2);
  const out = Buffer.alloc(12 + 16 * count);
  out.write("true", 0, "latin1");
  out.writeUInt16BE(count, 4);
  out.writeUInt16BE(power * 16, 6);
  out.writeUInt16BE(Math.log(power) / Math.LN2, 8);
  out.writeUInt16BE(count * 16 - power * 16, 10);
  let offset = out.length;
  tables.forEach(([tag, bytes], i) => {
    const entry = 12 + i * 16;
    out.write(tag, entry, "latin1");
    out.writeUInt32BE(offset, entry + 8);
    out.writeUInt32BE(bytes.length, entry + 12);
    offset += bytes.length;
  });
  return out;
}

/** Writes subsets of one face; null when the face is not one this writes (see the module doc). */
export type SubsetWriter = (subset: SubsetLike) => Buffer | null;

/**
 * The subset writer of a face. `newStream` makes an empty restructure EncodeStream, used once
 * to have fontkit encode the glyph-independent tables.
 */
export function subsetWriter(font: TrueTypeFontLike, newStream: () => EncodeStreamLike): SubsetWriter | null {
  if (font.directory.tables["CFF "] !== undefined || font.directory.tables.glyf === undefined) return null;
  if (font._variationProcessor) return null;
  const reference = font.createSubset();
  const stream = newStream();
  reference.encode(stream);
  stream.end();
  const file = stream.read();
  if (file === null) return null;
  const fixed = tablesOf(file);
  const hhea = fixed.get("hhea");
  const maxp = fixed.get("maxp");
  if (hhea === undefined || maxp === undefined || !fixed.has("loca") || !fixed.has("hmtx")) return null;
  const shortLoca = font.loca.version === 0;
  const glyphs = new Map<number, GlyphData>();
  const dataOf = (id: number): GlyphData => {
    let data = glyphs.get(id);
    if (data === undefined) {
      data = glyphDataOf(font, id);
      glyphs.set(id, data);
    }
    return data;
  };

  return (subset) => {
    const outlines: Buffer[] = [];
    const metrics: GlyphData[] = [];
    const offsets: number[] = [];
    let offset = 0;
    // Components of composite glyphs join the subset as they are met, as fontkit does.
    for (let i = 0; i < subset.glyphs.length; i += 1) {
      const data = dataOf(subset.glyphs[i] ?? 0);
      let outline = data.outline;
      if (data.components.length > 0) {
        outline = Buffer.from(outline);
        for (const c of data.components) outline.writeUInt16BE(subset.includeGlyph(c.glyphID), c.pos);
      }
      outlines.push(outline);
      metrics.push(data);
      offsets.push(offset);
      offset += outline.length;
    }
    offsets.push(offset);
    if (shortLoca && offset > SHORT_LOCA_LIMIT) return null;
    const count = outlines.length;
    const loca = Buffer.alloc(offsets.length * (shortLoca ? 2 : 4));
    offsets.forEach((o, i) => {
      if (shortLoca) loca.writeUInt16BE(o >>> 1, i * 2);
      else loca.writeUInt32BE(o, i * 4);
    });
    const hmtx = Buffer.alloc(count * 4);
    metrics.forEach((m, i) => {
      hmtx.writeUInt16BE(m.advance, i * 4);
      hmtx.writeInt16BE(m.bearing, i * 4 + 2);
    });
    const ownHhea = Buffer.from(hhea);
    ownHhea.writeUInt16BE(count, 34);
    const ownMaxp = Buffer.from(maxp);
    ownMaxp.writeUInt16BE(count, 4);
    const computed: Record<string, Buffer> = {
      hhea: ownHhea,
      maxp: ownMaxp,
      loca,
      hmtx,
      glyf: Buffer.concat(outlines, offset),
    };
    const tables = [...fixed].map(([tag, bytes]) => [tag, computed[tag] ?? bytes] as const);
    return Buffer.concat([directory(tables), ...tables.map(([, bytes]) => bytes)]);
  };
}

/**
 * Makes every subset `font.createSubset()` returns from now on write itself with `write`, or
 * with fontkit's own encoder when `write` declines.
 */
export function useSubsetWriter(font: TrueTypeFontLike, write: SubsetWriter): void {
  const create = font.createSubset.bind(font);
  Object.assign(font, {
    createSubset(): SubsetLike {
      const subset = create();
      const encode = subset.encode.bind(subset);
      subset.encode = (stream) => {
        const bytes = write(subset);
        if (bytes === null) encode(stream);
        else stream.writeBuffer(bytes);
      };
      return subset;
    },
  });
}
