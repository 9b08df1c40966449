/**
 * Validating goAML reports with Debian's xmllint (libxml2-utils) against the goAML 5.0.1 schema,
 * read from ../shared/spec/goaml/ (never copied into the project: its repository states no
 * licence). Without the schema the suite skips, saying so; without xmllint it skips too, except
 * when OPENKYT_REQUIRE_XMLLINT=1 (CI), where a missing xmllint is a failure. A clean clone may
 * have no ../shared: the schema's absence is never a failure.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const RELATIVE = "shared/spec/goaml/goAMLSchema.xsd";

/** Where the schema is: OPENKYT_GOAML_SCHEMA, else ../shared beside the checkout (or beside its worktree folder). */
export function goamlSchemaPath(): string | null {
  const candidates = [
    process.env.OPENKYT_GOAML_SCHEMA,
    join(root, "..", RELATIVE),
    join(root, "..", "..", RELATIVE),
  ].filter((p): p is string => typeof p === "string" && p !== "");
  return candidates.find((p) => existsSync(p)) ?? null;
}

function hasXmllint(): boolean {
  try {
    execFileSync("xmllint", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Why the schema validation cannot run here, or null when it can. */
export function goamlValidationMissing(): string | null {
  const schema = goamlSchemaPath();
  if (schema === null) {
    const reason = `the goAML schema is not at ../${RELATIVE} (nor OPENKYT_GOAML_SCHEMA)`;
    console.warn(`skipping the goAML schema validation: ${reason}`);
    return reason;
  }
  if (hasXmllint()) return null;
  const reason = "xmllint (libxml2-utils) is not installed: apt-get install -y libxml2-utils";
  if (process.env.OPENKYT_REQUIRE_XMLLINT === "1")
    throw new Error(`the goAML validation cannot run: ${reason}`);
  console.warn(`skipping the goAML schema validation: ${reason}`);
  return reason;
}

/** xmllint's verdict on `xml`: ok, or its messages. */
export function validateGoaml(xml: string): { ok: boolean; messages: string } {
  const schema = goamlSchemaPath();
  if (schema === null) throw new Error("no goAML schema");
  const dir = mkdtempSync(join(tmpdir(), "openkyt-goaml-"));
  try {
    const file = join(dir, "report.xml");
    writeFileSync(file, xml);
    const run = spawnSync("xmllint", ["--noout", "--nonet", "--schema", schema, file], { encoding: "utf8" });
    return { ok: run.status === 0, messages: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An FIU profile as an account would configure it (codes from a made-up FIU's lists). */
export const TEST_GOAML_PROFILE = Object.freeze({
  rentity_id: 1234,
  rentity_branch: "Head office",
  reporting_person: { first_name: "Ada", last_name: "Compliance", email: "mlro@example.com" },
  location: { address: "1 Example Street", city: "Vaduz", country_code: "LI" },
  institution_name: "Example Exchange AG",
  institution_code: "EXAG",
  transmode_code: "AA",
  funds_code: "K",
  country_code: "LI",
});
