import { describe, expect, it } from "vitest";
import { parseCommandArgs } from "../src/cli-args.js";
import { UsageError } from "../src/cli-command.js";
import { HUB_CACHE_OPTION, hubCacheOption } from "../src/engine-setup.js";

const parse = (argv: string[]) => parseCommandArgs(argv, HUB_CACHE_OPTION);

describe("--hub-cache-mb", () => {
  it("defaults to none, then takes OPENKYT_HUB_CACHE_MB, then the flag; 0 switches the cache off", () => {
    expect(hubCacheOption(parse([]), {})).toBeNull();
    expect(hubCacheOption(parse([]), { OPENKYT_HUB_CACHE_MB: "64" })).toBe(64);
    expect(hubCacheOption(parse(["--hub-cache-mb", "1024"]), { OPENKYT_HUB_CACHE_MB: "64" })).toBe(1024);
    expect(hubCacheOption(parse(["--hub-cache-mb", "0"]), {})).toBeNull();
    expect(hubCacheOption(parse([]), { OPENKYT_HUB_CACHE_MB: "0" })).toBeNull();
  });

  it("refuses what is not a whole number of MB", () => {
    for (const bad of ["-1", "1.5", "lots", "256MB"]) {
      expect(() => hubCacheOption(parse([`--hub-cache-mb=${bad}`]), {})).toThrow(UsageError);
    }
  });
});
