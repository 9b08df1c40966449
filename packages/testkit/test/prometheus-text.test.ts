/** The strict Prometheus text parser the metrics tests read /metrics with. */
import { describe, expect, it } from "vitest";
import { parsePrometheusText, promValue } from "../src/prometheus-text.js";

const GOOD = `# HELP a_total Things, with a \\\\ backslash.
# TYPE a_total counter
a_total{route="/v1/x/{id}/",q="say \\"hi\\"\\nthere"} 3
a_total{route="/b"} 1.5e3
# a comment
# TYPE h histogram
h_bucket{le="0.1"} 1
h_bucket{le="1"} 2
h_bucket{le="+Inf"} 4
h_sum 2.5
h_count 4
# TYPE g gauge
g NaN 1700000000000
`;

describe("parsePrometheusText", () => {
  it("reads families, labels with escapes, values and histograms", () => {
    const families = parsePrometheusText(GOOD);
    expect([...families.keys()]).toEqual(["a_total", "h", "g"]);
    expect(families.get("a_total")).toMatchObject({ type: "counter", help: "Things, with a \\ backslash." });
    expect(promValue(families, "a_total", { q: 'say "hi"\nthere' })).toBe(3);
    expect(promValue(families, "a_total", { route: "/b" })).toBe(1500);
    expect(promValue(families, "h_bucket", { le: "+Inf" })).toBe(4);
    expect(promValue(families, "g")).toBeNaN();
    expect(() => promValue(families, "a_total")).toThrow(/2 samples/);
  });

  it.each([
    ["a sample before its TYPE", "x 1\n"],
    ["a bad metric name", "# TYPE 1x counter\n"],
    ["an unknown type", "# TYPE x countr\n"],
    ["a TYPE twice", "# TYPE x counter\n# TYPE x counter\n"],
    ["a bad label name", '# TYPE x counter\nx{1a="b"} 1\n'],
    ["an unquoted label value", "# TYPE x counter\nx{a=b} 1\n"],
    ["a bad escape", '# TYPE x counter\nx{a="\\t"} 1\n'],
    ["an unclosed label value", '# TYPE x counter\nx{a="b} 1\n'],
    ["a label twice", '# TYPE x counter\nx{a="b",a="c"} 1\n'],
    ["a bad value", "# TYPE x counter\nx one\n"],
    ["a missing value", "# TYPE x counter\nx\n"],
    ["the same series twice", '# TYPE x counter\nx{a="b"} 1\nx{a="b"} 2\n'],
    ["a histogram without +Inf", '# TYPE h histogram\nh_bucket{le="1"} 1\nh_count 1\n'],
    ["falling buckets", '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1\n'],
    ["+Inf not equal to _count", '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_count 3\n'],
  ])("refuses %s", (_what, text) => {
    expect(() => parsePrometheusText(text)).toThrow(/metrics text line \d+|histogram|h /);
  });
});
