/**
 * The server's report settings: the block explorer of each network (URL templates with
 * `{address}` and `{tx}`, which the console's links fill in) and the goAML profile of the FIU the
 * account reports to. They come from the server's configuration (`openkyt serve
 * --reports-config FILE`, a JSON file of this shape); every network has a sensible explorer by
 * default, and goAML exports are refused (NOT_CONFIGURED) until a profile is given.
 */
import { KytError } from "@openkyt/core";
import { z } from "zod";
import { type GoamlProfile, goamlProfileSchema } from "./goaml-profile.js";

/** One network's explorer: where an address and a transaction are shown. */
export interface ExplorerTemplate {
  /** With `{address}`, e.g. `https://etherscan.io/address/{address}`. */
  readonly address: string;
  /** With `{tx}`, e.g. `https://etherscan.io/tx/{tx}`. */
  readonly tx: string;
}

/** What the reports and the console's links read. */
export interface ReportSettings {
  /** Per network code (BTC, ETH, TRX, ...). */
  readonly explorers: Readonly<Record<string, ExplorerTemplate>>;
  /** Null until configured: goAML exports answer NOT_CONFIGURED naming the option. */
  readonly goaml: GoamlProfile | null;
}

const explorer = (base: string, address = "address/{address}", tx = "tx/{tx}"): ExplorerTemplate => ({
  address: `${base}/${address}`,
  tx: `${base}/${tx}`,
});

/** Public explorers of the networks OpenKYT knows. */
export const DEFAULT_EXPLORERS: Readonly<Record<string, ExplorerTemplate>> = Object.freeze({
  BTC: explorer("https://mempool.space"),
  LTC: explorer("https://litecoinspace.org"),
  ETH: explorer("https://etherscan.io"),
  BSC: explorer("https://bscscan.com"),
  POLYGON: explorer("https://polygonscan.com"),
  ARB: explorer("https://arbiscan.io"),
  OP: explorer("https://optimistic.etherscan.io"),
  BASE: explorer("https://basescan.org"),
  AVAX: explorer("https://snowtrace.io"),
  TRX: explorer("https://tronscan.org/#", "address/{address}", "transaction/{tx}"),
});

const template = (placeholder: string) =>
  z
    .string()
    .max(500)
    .url()
    .refine((u) => /^https?:\/\//i.test(u), { message: "must be an http or https URL" })
    .refine((u) => u.includes(placeholder), { message: `must contain ${placeholder}` });

/** The JSON of a reports configuration file. */
export const reportSettingsFileSchema = z
  .strictObject({
    explorers: z
      .record(
        z.string().regex(/^[A-Z0-9_]{2,20}$/, "a network code such as ETH"),
        z.strictObject({ address: template("{address}"), tx: template("{tx}") }),
      )
      .optional()
      .describe("Explorer URL templates by network; they replace the defaults of the networks named."),
    goaml: goamlProfileSchema.optional().describe("The goAML profile of the FIU (docs/reports.md)."),
  })
  .describe("Report settings.");

/** The settings from a parsed configuration (the defaults where it says nothing). */
export function reportSettings(config: unknown = {}): ReportSettings {
  const parsed = reportSettingsFileSchema.safeParse(config);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path.join(".") || "reports config";
      errors[field] = [...(errors[field] ?? []), issue.message];
    }
    const first = Object.entries(errors)[0];
    throw new KytError("VALIDATION_ERROR", `reports config: ${first?.[0]}: ${first?.[1][0]}`, { errors });
  }
  return Object.freeze({
    explorers: Object.freeze({ ...DEFAULT_EXPLORERS, ...parsed.data.explorers }),
    goaml: parsed.data.goaml ?? null,
  });
}

/** The answer of GET /v1/report-settings/. */
export const reportSettingsResponseSchema = z
  .strictObject({
    explorers: z.record(z.string(), z.strictObject({ address: z.string(), tx: z.string() })),
    goaml_configured: z.boolean().describe("Whether goAML exports can be made (a profile is configured)."),
  })
  .describe("The explorers the console links to, and whether goAML exports are configured.");
