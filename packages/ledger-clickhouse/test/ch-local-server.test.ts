/**
 * startLocalClickHouse's server settings: MergeTree settings in config.xml and profile settings in
 * users.xml reach the running server (what the bench's merge-settings A/B relies on).
 */
import { describe, expect, it } from "vitest";
import { openChClient, parseClickHouseUrl, startLocalClickHouse } from "../src/index.js";
import { CLICKHOUSE_MISSING } from "./ch-test-server.js";

describe.skipIf(CLICKHOUSE_MISSING !== null)("a local server's settings", () => {
  it("applies the MergeTree and profile settings it is given", async () => {
    const server = await startLocalClickHouse({
      mergeTree: { parts_to_delay_insert: 321, max_bytes_to_merge_at_max_space_in_pool: 123_456_789 },
      profile: { max_insert_block_size: 2_097_152 },
    });
    try {
      const client = openChClient(parseClickHouseUrl(server.ledgerUrl("default")));
      const merge = await client.rows<{ name: string; value: string }>(
        "SELECT name, value FROM system.merge_tree_settings WHERE name IN ('parts_to_delay_insert', 'max_bytes_to_merge_at_max_space_in_pool') ORDER BY name",
      );
      const profile = await client.rows<{ value: string }>(
        "SELECT value FROM system.settings WHERE name = 'max_insert_block_size'",
      );
      await client.close();
      expect(merge).toEqual([
        { name: "max_bytes_to_merge_at_max_space_in_pool", value: "123456789" },
        { name: "parts_to_delay_insert", value: "321" },
      ]);
      expect(profile).toEqual([{ value: "2097152" }]);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("refuses a setting that is not a whole number", async () => {
    await expect(startLocalClickHouse({ mergeTree: { parts_to_delay_insert: 1.5 } })).rejects.toThrow(
      /whole number/,
    );
  });
});
