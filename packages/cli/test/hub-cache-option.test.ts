import { describe, expect, it } from "vitest";
import { parseCommandArgs } from "../src/cli-args.js";
import { UsageError } from "../src/cli-command.js";
import { HUB_CACHE_OPTION, hubCacheOption } from "../src/engine-setup.js";
import { defaultHubCacheMb, HUB_CACHE_DEFAULT_MB } from "../src/hub-cache-default.js";

const parse = (argv: string[]) => parseCommandArgs(argv, HUB_CACHE_OPTION);

describe("--hub-cache-mb", () => {
  it("defaults to the store's default, then takes OPENKYT_HUB_CACHE_MB, then the flag; 0 switches the cache off", () => {
    expect(hubCacheOption(parse([]), {})).toBeUndefined();
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

  it("by default holds 256 MB of hubs on a store that counts its hops, less on a small heap, none on one that does not count", () => {
    const counting = { ledgerIncomingCounts: async () => [] };
    expect(defaultHubCacheMb(counting, 4 * 2 ** 30)).toBe(HUB_CACHE_DEFAULT_MB);
    expect(defaultHubCacheMb(counting, 512 * 2 ** 20)).toBe(64);
    expect(defaultHubCacheMb(counting, 4 * 2 ** 20)).toBeNull();
    expect(defaultHubCacheMb({}, 4 * 2 ** 30)).toBeNull();
  });
});
