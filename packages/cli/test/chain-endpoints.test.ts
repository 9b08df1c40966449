/** Node URLs from --chain and OPENKYT_CHAINS, shown without credentials; follow's progress lines. */
import { describe, expect, it } from "vitest";
import { chainEndpoints, redactUrl } from "../src/chain-endpoints.js";
import { followProgress } from "../src/follow-progress.js";

describe("chain endpoints", () => {
  it("reads flags and the environment, a flag replacing the variable's entry", () => {
    expect(chainEndpoints(["eth=http://a:8545"], "ETH=http://b:8545, TRX=https://tron.example/")).toEqual([
      { network: "ETH", url: "http://a:8545" },
      { network: "TRX", url: "https://tron.example/" },
    ]);
    expect(chainEndpoints([], undefined)).toEqual([]);
  });

  it("refuses what is not NETWORK=URL, naming the problem but never the URL", () => {
    expect(() => chainEndpoints(["ETH"], undefined)).toThrow(/--chain takes NETWORK=URL/);
    expect(() => chainEndpoints(["DOGE=http://x"], undefined)).toThrow(/unknown network "DOGE"/);
    expect(() => chainEndpoints(["ETH=ftp://u:secret@x"], undefined)).toThrow(/must be http/);
    expect(() => chainEndpoints(["ETH=http://x", "ETH=http://y"], undefined)).toThrow(/names ETH twice/);
    expect(() => chainEndpoints([], "ETH=nonsense-secret")).toThrow(
      /OPENKYT_CHAINS: the URL of ETH is not a URL/,
    );
    try {
      chainEndpoints([], "ETH=nonsense-secret");
    } catch (error) {
      expect(String(error)).not.toContain("secret");
    }
  });

  it("shows a URL without its user, password, path or query", () => {
    expect(redactUrl("https://user:pw@eth.example.org:8443/v3/KEY?apikey=K")).toBe(
      "https://***@eth.example.org:8443/***?***",
    );
    expect(redactUrl("http://127.0.0.1:8545")).toBe("http://127.0.0.1:8545");
    expect(redactUrl("not a url with secret")).toBe("(a URL)");
  });
});

describe("follow progress", () => {
  it("reports a backfill with rates and an ETA, the catch-up once, and reorganisations", () => {
    const lines: string[] = [];
    let now = 0;
    // The reporter starts at 0: the first step's rate counts its own time.
    const report = followProgress("ETH", (t) => lines.push(t), { everyMs: 0, now: () => now });
    const blocks = (from: number, to: number) =>
      ({
        kind: "blocks",
        from,
        to,
        transfers: 10,
        inserted: 10,
        head: 1000,
        safeHead: 1000,
        blockTime: 0,
        clustering: null,
      }) as const;
    now = 1000;
    report(blocks(1, 100));
    now = 2000;
    report(blocks(101, 200));
    report({ kind: "idle", cursor: 1000, head: 1000, safeHead: 1000 });
    report({ kind: "idle", cursor: 1000, head: 1000, safeHead: 1000 });
    report({ kind: "reorg", from: 998, removedBlocks: 3, removedTransfers: 7, head: 1001 });
    expect(lines).toEqual([
      "ETH: backfill at block 100 of 1,000: 100 of 1,000 blocks (10%), 100 blocks/s, 10 rows/s, ETA 9 s\n",
      "ETH: backfill at block 200 of 1,000: 200 of 1,000 blocks (20%), 100 blocks/s, 10 rows/s, ETA 8 s\n",
      "ETH: caught up at block 1,000 (head 1,000)\n",
      "ETH: reorganisation: blocks from 998 replaced, 3 blocks and 7 rows undone\n",
    ]);
  });
});
