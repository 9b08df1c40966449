/**
 * The goAML profile: what an FIU's goAML (schema 5.0.1) report needs that OpenKYT does not know
 * by itself, namely the reporting entity's registration with the FIU, the reporting person, the
 * entity's location, and the FIU's own codes (report, transmission mode, funds, indicators).
 * Each FIU publishes its code lists; the values here must come from the FIU's profile.
 */
import { z } from "zod";

const text = (max: number) => z.string().trim().min(1).max(max);
const code = (what: string) => text(20).describe(`The FIU's code for ${what}.`);

/** A postal address in goAML's t_address. */
const addressSchema = z.strictObject({
  address_type: code("the kind of address (contact_type)").default("-"),
  address: text(100).describe("Street and number."),
  city: text(255),
  country_code: text(2).describe("ISO 3166 country code, as the FIU's country list has it."),
});

/** The profile. */
export const goamlProfileSchema = z
  .strictObject({
    rentity_id: z.number().int().min(1).describe("The reporting entity's id at the FIU."),
    rentity_branch: text(255).describe("The reporting entity's branch."),
    submission_code: z.enum(["E", "M"]).default("E").describe("E: electronic, M: manual."),
    report_code: code("the report type (e.g. STR, SAR)").default("STR"),
    currency_code_local: text(3).default("USD").describe("The local currency (amounts are in it)."),
    reporting_person: z.strictObject({
      first_name: text(100),
      last_name: text(100),
      passport_number: text(255).optional().describe("When the FIU requires it."),
      email: text(255).optional(),
      occupation: text(255).optional(),
    }),
    location: addressSchema.describe("The reporting entity's address."),
    institution_name: text(255).describe(
      "The reporting entity's name (the customer's side of the transfer).",
    ),
    institution_code: text(50).describe("The reporting entity's institution code at the FIU."),
    transmode_code: code("a virtual asset transfer (conduction_type)"),
    funds_code: code("virtual assets (funds_type)"),
    country_code: text(2).describe("The country of the customer's side (the reporting entity's)."),
    counterparty_country_code: text(2)
      .default("-")
      .describe(
        "The country given for an on-chain counterparty, whose country is not known ('-' by default).",
      ),
    indicators: z
      .array(code("a report indicator"))
      .min(1)
      .max(50)
      .default(["-"])
      .describe("The FIU's report indicator codes to set."),
  })
  .describe("The goAML profile of the FIU reported to.");

/** A parsed profile (defaults applied). */
export type GoamlProfile = z.output<typeof goamlProfileSchema>;
