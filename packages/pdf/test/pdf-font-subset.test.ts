/**
 * The fast subset writer gives fontkit's bytes: for each Roboto face and glyph sets of every kind
 * (the missing glyph alone, printable ASCII, composite glyphs whose components join the subset,
 * a large random set in random order), and it leaves a face it declines to fontkit.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fontBuffers, robotoFonts } from "../src/index.js";
import {
  type EncodeStreamLike,
  type SubsetLike,
  subsetWriter,
  type TrueTypeFontLike,
  useSubsetWriter,
} from "../src/pdf-font-subset.js";

interface FontkitFont extends TrueTypeFontLike {
  readonly numGlyphs: number;
  glyphForCodePoint(codePoint: number): { readonly id: number };
}

const fromPdfkit = createRequire(
  createRequire(createRequire(import.meta.url).resolve("pdfmake")).resolve("@foliojs-fork/pdfkit"),
);
const fromFontkit = createRequire(fromPdfkit.resolve("@foliojs-fork/fontkit"));
const fontkit = fromPdfkit("@foliojs-fork/fontkit") as { create(buffer: Buffer): FontkitFont };
const { EncodeStream } = fromFontkit("@foliojs-fork/restructure") as {
  EncodeStream: new () => EncodeStreamLike;
};
const newStream = () => new EncodeStream();

/** fontkit's own bytes of a subset of `ids`, from a font object nothing has touched. */
function fontkitBytes(face: Buffer, ids: ReadonlyArray<number>): { bytes: Buffer; glyphs: number[] } {
  const subset = fontkit.create(face).createSubset();
  for (const id of ids) subset.includeGlyph(id);
  const stream = newStream();
  subset.encode(stream);
  stream.end();
  return { bytes: stream.read() ?? Buffer.alloc(0), glyphs: [...subset.glyphs] };
}

function writerBytes(font: FontkitFont, ids: ReadonlyArray<number>): { bytes: Buffer; glyphs: number[] } {
  const write = subsetWriter(font, newStream);
  if (write === null) throw new Error("the writer declined a Roboto face");
  const subset: SubsetLike = font.createSubset();
  for (const id of ids) subset.includeGlyph(id);
  const bytes = write(subset);
  if (bytes === null) throw new Error("the writer declined a small subset");
  return { bytes, glyphs: [...subset.glyphs] };
}

const faces = Object.entries(fontBuffers(robotoFonts()));
const ascii = (font: FontkitFont) =>
  Array.from({ length: 0x7f - 0x20 }, (_, i) => font.glyphForCodePoint(0x20 + i).id);
const accented = (font: FontkitFont) =>
  [..."éÅñüÇ€ŠžØ"].map((c) => font.glyphForCodePoint(c.codePointAt(0) ?? 0).id);

describe.each(faces)("subsets of Roboto %s", (_name, face) => {
  const font = fontkit.create(face);

  it("has composite glyphs among the accented letters (so the component path is exercised)", () => {
    const composite = accented(font).filter((id) => (font.getGlyph(id)._decode()?.numberOfContours ?? 0) < 0);
    expect(composite.length).toBeGreaterThan(0);
  });

  it.each([
    ["the missing glyph alone", () => []],
    ["printable ASCII", () => ascii(font)],
    ["composite accented letters", () => accented(font)],
    ["ASCII in reverse with accents", () => [...accented(font), ...ascii(font).reverse()]],
  ])("writes fontkit's bytes for %s", (_label, ids) => {
    const expected = fontkitBytes(face, ids());
    const actual = writerBytes(font, ids());
    expect(actual.glyphs).toEqual(expected.glyphs);
    expect(actual.bytes.equals(expected.bytes)).toBe(true);
  });

  it("writes fontkit's bytes for any set of glyphs in any order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: font.numGlyphs - 1 }), { maxLength: 120 }), (ids) => {
        const expected = fontkitBytes(face, ids);
        const actual = writerBytes(font, ids);
        expect(actual.glyphs).toEqual(expected.glyphs);
        expect(actual.bytes.equals(expected.bytes)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });
});

describe("useSubsetWriter", () => {
  const face = fontBuffers(robotoFonts()).normal;

  it("encodes with the writer's bytes when it writes", () => {
    const font = fontkit.create(face);
    const written = Buffer.from("written");
    useSubsetWriter(font, () => written);
    const stream = newStream();
    font.createSubset().encode(stream);
    stream.end();
    expect(stream.read()?.equals(written)).toBe(true);
  });

  it("leaves the subset to fontkit when the writer declines", () => {
    const font = fontkit.create(face);
    useSubsetWriter(font, () => null);
    const subset = font.createSubset();
    for (const id of ascii(font)) subset.includeGlyph(id);
    const stream = newStream();
    subset.encode(stream);
    stream.end();
    expect(stream.read()?.equals(fontkitBytes(face, ascii(font)).bytes)).toBe(true);
  });
});
