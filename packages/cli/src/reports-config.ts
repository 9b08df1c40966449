/**
 * `openkyt serve --reports-config FILE`: the report settings (explorer URL templates per
 * network, the goAML profile of the FIU) from a JSON file; see docs/reports.md. A file that
 * cannot be read or parsed, or a field that is wrong, is a usage error naming the file and field.
 */
import { readFileSync } from "node:fs";
import { isKytError } from "@openkyt/core";
import { type ReportSettings, reportSettings } from "@openkyt/http";
import { UsageError } from "./cli-command.js";

/** The settings of `path`, or the defaults when no file is named. */
export function readReportsConfig(path: string | undefined): ReportSettings {
  if (path === undefined) return reportSettings();
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(
      `--reports-config ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return reportSettings(json);
  } catch (error) {
    if (isKytError(error)) throw new UsageError(`--reports-config ${path}: ${error.message}`);
    throw error;
  }
}
