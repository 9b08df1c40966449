/**
 * Replay across nodes (issue 18, item 1): two `openkyt serve` processes on one Postgres schema,
 * as behind a load balancer. A signed POST captured on its way to node 1 is sent to node 2:
 * node 2 refuses it (401, replay) because the replay guard is the store's table, shared by
 * both, and no second transfer exists. Before, each node had its own in-memory guard and
 * node 2 ran the request again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Store } from "@openkyt/core";
import { afterEach, describe, expect, it } from "vitest";
// The store package does not depend on the CLI or the client: the test reaches them through the workspace.
import { signedHeaders } from "../../client/src/index.js";
import { withTestPostgres } from "./pg-test-suite.js";

const BIN = fileURLToPath(new URL("../../cli/bin/openkyt.js", import.meta.url));
const KEY = { id: "replay-node-key-01", secret: "replay-node-secret-0123456789", account: "acme" };

/** Starts `openkyt serve` on `db`; resolves with its URL once it listens. */
function serveNode(db: string, nodes: ChildProcess[]): Promise<string> {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--db", db, "--port", "0", "--no-workers", "--json", "--log-level", "warn"],
    {
      env: {
        ...process.env,
        OPENKYT_FROM_SOURCE: "1",
        OPENKYT_DB: "",
        OPENKYT_VAULT_KEY: "",
        OPENKYT_API_KEYS: `${KEY.id}:${KEY.secret}:${KEY.account}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  nodes.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let errors = "";
    child.stderr?.on("data", (d) => {
      errors += d;
    });
    child.stdout?.on("data", (d) => {
      out += d;
      const end = out.indexOf("\n");
      if (end !== -1) resolve((JSON.parse(out.slice(0, end)) as { url: string }).url);
    });
    child.on("close", (code) => reject(new Error(`openkyt serve exited ${code}: ${errors}`)));
  });
}

/** Stops a node with SIGTERM and waits for it to exit. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

await withTestPostgres("replay across two openkyt serve processes on Postgres", ({ url, stores }) => {
  describe("two server processes on one Postgres schema", () => {
    const nodes: ChildProcess[] = [];
    let store: Store | null = null;
    afterEach(async () => {
      await Promise.all(nodes.splice(0).map(stop));
      if (store) await stores.destroyStore(store);
      store = null;
    });

    it("a signed POST captured from node 1 and replayed to node 2 is refused; one transfer exists", async () => {
      store = await stores.createStore();
      const target = new URL(url);
      target.searchParams.set("schema", stores.schemaOf(store));
      // One after the other: both provision the same key, the second finds it in place.
      const node1 = await serveNode(target.href, nodes);
      const node2 = await serveNode(target.href, nodes);

      const path = "/v1/transfers/register/";
      const body = JSON.stringify({
        direction: "incoming",
        network: "ETH",
        tx_hash: `0x${"ab".repeat(32)}`,
        output_address: `0x${"cd".repeat(20)}`,
        client_id: "replay-across-nodes",
      });
      const headers = {
        "content-type": "application/json",
        ...signedHeaders(KEY.id, { secret: KEY.secret, method: "POST", path, timestamp: Date.now(), body }),
      };
      const send = (node: string) => fetch(`${node}${path}`, { method: "POST", headers, body });

      const first = await send(node1);
      expect(first.status).toBe(201);
      const replayed = await send(node2);
      expect(replayed.status).toBe(401);
      expect(await replayed.json()).toMatchObject({
        code: "UNAUTHORIZED",
        detail: expect.stringMatching(/replay/),
      });
      expect((await send(node1)).status).toBe(401);

      const transfers = await store.listTransfers(KEY.account, {}, { page: 1, pageSize: 10 });
      expect(transfers.total).toBe(1);
      expect(transfers.items[0]?.clientId).toBe("replay-across-nodes");

      // Node 2 serves its own requests, and sees the one transfer.
      const list = "/v1/transfers/";
      const again = signedHeaders(KEY.id, {
        secret: KEY.secret,
        method: "GET",
        path: list,
        timestamp: Date.now(),
      });
      const listed = await fetch(`${node2}${list}`, { headers: again });
      expect(listed.status).toBe(200);
      expect(await listed.json()).toMatchObject({ total_items: 1 });
    }, 60_000);
  });
});
