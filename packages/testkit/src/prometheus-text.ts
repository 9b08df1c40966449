/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), for tests that read
 * `/metrics`: every line must be a `# HELP`, a `# TYPE`, another comment, a blank line or a
 * sample; names, label names and escapes must be valid; a family is typed before its samples and
 * at most once; a series appears once; a histogram's buckets rise with `le`, end at `+Inf`, and
 * the `+Inf` bucket equals `_count`. Anything else throws, naming the line.
 */

/** One sample: its name (with a histogram's `_bucket`, `_sum`, `_count`), labels and value. */
export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** A metric family: its type, help and samples. */
export interface PromFamily {
  readonly name: string;
  readonly type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  readonly help: string;
  readonly samples: ReadonlyArray<PromSample>;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const SUFFIXES = ["_bucket", "_sum", "_count", "_total", "_created"];

function fail(lineNo: number, line: string, problem: string): never {
  throw new Error(`metrics text line ${lineNo}: ${problem}: ${JSON.stringify(line.slice(0, 200))}`);
}

function parseValue(text: string): number {
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  if (text === "NaN") return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a number: ${text}`);
  return Number(text);
}

/** Parses `{a="x",b="y"}` from `text` at `start` (the `{`); returns the labels and the index after `}`. */
function parseLabels(text: string, start: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    if (text[i] === "}") return { labels, end: i + 1 };
    const eq = text.indexOf("=", i);
    if (eq === -1) throw new Error("label without '='");
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name ${JSON.stringify(name)}`);
    if (name in labels) throw new Error(`label ${name} given twice`);
    if (text[eq + 1] !== '"') throw new Error(`label ${name} value not quoted`);
    let value = "";
    let j = eq + 2;
    for (;;) {
      const ch = text[j];
      if (ch === undefined) throw new Error(`label ${name} value not closed`);
      if (ch === '"') break;
      if (ch === "\\") {
        const next = text[j + 1];
        if (next === "\\") value += "\\";
        else if (next === '"') value += '"';
        else if (next === "n") value += "\n";
        else throw new Error(`bad escape \\${next ?? ""} in label ${name}`);
        j += 2;
      } else {
        value += ch;
        j += 1;
      }
    }
    labels[name] = value;
    i = j + 1;
    if (text[i] === ",") i += 1;
    else if (text[i] !== "}") throw new Error(`expected ',' or '}' after label ${name}`);
  }
}

/** The family a sample name belongs to, among the typed ones. */
function familyOf(name: string, typed: Map<string, { type: string }>): string | null {
  if (typed.has(name)) return name;
  for (const suffix of SUFFIXES) {
    if (name.endsWith(suffix)) {
      const base = name.slice(0, -suffix.length);
      if (typed.has(base)) return base;
    }
  }
  return null;
}

/** Checks each histogram series: buckets rising with `le`, ending at +Inf, equal to `_count`. */
function checkHistogram(family: PromFamily): void {
  const series = new Map<string, { buckets: Array<[number, number]>; count?: number }>();
  const keyOf = (labels: Readonly<Record<string, string>>) =>
    JSON.stringify(
      Object.entries(labels)
        .filter(([k]) => k !== "le")
        .sort(),
    );
  for (const s of family.samples) {
    const key = keyOf(s.labels);
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (s.name.endsWith("_bucket")) {
      const le = s.labels.le;
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([parseValue(le), s.value]);
    } else if (s.name.endsWith("_count")) entry.count = s.value;
  }
  for (const [key, entry] of series) {
    const last = entry.buckets.at(-1);
    if (!last || last[0] !== Number.POSITIVE_INFINITY)
      throw new Error(`${family.name} ${key}: no +Inf bucket`);
    for (let i = 1; i < entry.buckets.length; i += 1) {
      const [le, count] = entry.buckets[i] as [number, number];
      const [prevLe, prevCount] = entry.buckets[i - 1] as [number, number];
      if (!(le > prevLe) || count < prevCount) throw new Error(`${family.name} ${key}: buckets not rising`);
    }
    if (entry.count !== last[1]) throw new Error(`${family.name} ${key}: +Inf bucket is not _count`);
  }
}

/** Parses a whole exposition; throws on the first line that breaks the format. */
export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const typed = new Map<string, { type: string; help: string; samples: PromSample[] }>();
  const helps = new Map<string, string>();
  const seen = new Set<string>();
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (line.trim() === "") return;
    if (line.startsWith("#")) {
      const parts = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!parts) return; // another comment
      const [, kind, name = "", rest = ""] = parts;
      if (!METRIC_NAME.test(name)) fail(lineNo, line, "bad metric name");
      if (kind === "HELP") {
        if (helps.has(name)) fail(lineNo, line, "HELP given twice");
        helps.set(name, rest.replace(/\\n/g, "\n").replace(/\\\\/g, "\\"));
        return;
      }
      if (!TYPES.has(rest)) fail(lineNo, line, "unknown type");
      if (typed.has(name)) fail(lineNo, line, "TYPE given twice");
      typed.set(name, { type: rest, help: "", samples: [] });
      return;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) fail(lineNo, line, "not a sample");
    const name = line.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) fail(lineNo, line, "bad metric name");
    let labels: Record<string, string> = {};
    let rest = line.slice(nameEnd);
    if (rest.startsWith("{")) {
      try {
        const parsed = parseLabels(line, nameEnd);
        labels = parsed.labels;
        rest = line.slice(parsed.end);
      } catch (error) {
        fail(lineNo, line, (error as Error).message);
      }
    }
    const fields = rest.trim().split(" ");
    if (!rest.startsWith(" ") || fields.length < 1 || fields.length > 2)
      fail(lineNo, line, "expected ' value [timestamp]'");
    let value: number;
    try {
      value = parseValue(fields[0] ?? "");
      if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error("bad timestamp");
    } catch (error) {
      fail(lineNo, line, (error as Error).message);
    }
    const family = familyOf(name, typed);
    if (family === null) fail(lineNo, line, "a sample before its family's TYPE");
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) fail(lineNo, line, "the same series twice");
    seen.add(key);
    typed.get(family)?.samples.push({ name, labels, value });
  });
  const families = new Map<string, PromFamily>();
  for (const [name, f] of typed) {
    const family: PromFamily = {
      name,
      type: f.type as PromFamily["type"],
      help: helps.get(name) ?? "",
      samples: f.samples,
    };
    if (family.type === "histogram") checkHistogram(family);
    families.set(name, family);
  }
  return families;
}

/**
 * The value of the one sample named `name` whose labels include `labels`; throws when none or
 * several match (a test then names what it expected).
 */
export function promValue(
  families: ReadonlyMap<string, PromFamily>,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  const matches = [...families.values()]
    .flatMap((f) => f.samples)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (matches.length !== 1) {
    throw new Error(`${matches.length} samples of ${name} ${JSON.stringify(labels)}`);
  }
  return (matches[0] as PromSample).value;
}
