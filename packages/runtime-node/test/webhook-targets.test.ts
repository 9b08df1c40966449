import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createEngine,
  createMemoryStore,
  createWebhookTargetPolicy,
  type Engine,
  type HostLookup,
  isKytError,
  refusedAddressRange,
  type Store,
  TARGET_REFUSED,
} from "@openkyt/core";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeWebhookSender, nodeWebhookTransport } from "../src/node-webhook-sender.js";

/** Every spelling of a refused target, with the range it must be refused as. */
const REFUSED_URLS: ReadonlyArray<readonly [string, string]> = [
  ["http://127.0.0.1/hook", "loopback"],
  ["http://127.1/hook", "loopback"],
  ["http://2130706433/hook", "loopback"],
  ["http://0x7f000001/hook", "loopback"],
  ["http://0177.0.0.1/hook", "loopback"],
  ["http://0x7f.1/hook", "loopback"],
  ["http://127.0.0.1./hook", "loopback"],
  ["http://%31%32%37.0.0.1/hook", "loopback"],
  ["http://127.255.255.254:8080/hook", "loopback"],
  ["http://[::1]/hook", "loopback"],
  ["http://[0:0:0:0:0:0:0:1]/hook", "loopback"],
  ["http://localhost/hook", "localhost"],
  ["http://LOCALHOST./hook", "localhost"],
  ["http://api.localhost/hook", "localhost"],
  ["http://10.1.2.3/hook", "private"],
  ["http://172.16.0.1/hook", "private"],
  ["http://172.31.255.255/hook", "private"],
  ["http://192.168.1.1/hook", "private"],
  ["http://100.64.0.1/hook", "CGNAT"],
  ["http://169.254.169.254/latest/meta-data/", "link-local"],
  ["http://2852039166/latest/meta-data/", "link-local"],
  ["http://[fe80::1]/hook", "link-local"],
  ["http://[fd00::1]/hook", "unique-local"],
  ["http://[fc00::1]/hook", "unique-local"],
  ["http://224.0.0.1/hook", "multicast"],
  ["http://[ff02::1]/hook", "multicast"],
  ["http://0.0.0.0/hook", "unspecified"],
  ["http://0/hook", "unspecified"],
  ["http://[::]/hook", "unspecified"],
  ["http://255.255.255.255/hook", "broadcast"],
  ["http://[::ffff:127.0.0.1]/hook", "IPv4-mapped"],
  ["http://[::ffff:8.8.8.8]/hook", "IPv4-mapped"],
  ["http://[64:ff9b::7f00:1]/hook", "NAT64"],
  ["http://[64:ff9b:1::a00:1]/hook", "NAT64"],
  ["http://[2002:7f00:1::]/hook", "6to4"],
  ["http://[2001:0:7f00:1::]/hook", "Teredo"],
  ["http://192.0.2.1/hook", "documentation"],
  ["http://198.18.0.1/hook", "benchmarking"],
  ["http://240.0.0.1/hook", "reserved"],
  ["https://[::127.0.0.1]/hook", "IPv4-compatible"],
];

/** Names and what a stub DNS resolves them to (DNS is the external component here). */
const DNS: Readonly<Record<string, ReadonlyArray<string>>> = {
  "internal.example": ["10.0.0.5"],
  "metadata.example": ["169.254.169.254"],
  "mixed.example": ["93.184.216.34", "127.0.0.1"],
  "v6-local.example": ["fd12::1"],
  "public.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
};
const stubLookup: HostLookup = async (name) => {
  const addresses = DNS[name];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

let engines: Engine[] = [];
let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const e of engines) await e.stop();
  for (const close of closers) await close();
  engines = [];
  closers = [];
});

function engineOf(store: Store, webhooks: Parameters<typeof createEngine>[0]["webhooks"] = {}): Engine {
  const engine = createEngine({
    store,
    jobs: { pollIntervalMs: 10 },
    webhooks: {
      transport: nodeWebhookTransport,
      lookup: stubLookup,
      timeoutMs: 2_000,
      backoffBaseMs: 10,
      maxAttempts: 1,
      ...webhooks,
    },
  });
  engines.push(engine);
  return engine;
}

/** A receiver on `host` that answers `status` (and `location` for a redirect), counting requests. */
async function receiver(host: string, port = 0, status = 204, location?: string) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      seen.push(String(req.headers.host));
      res.writeHead(status, location ? { location } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { seen, port: (server.address() as AddressInfo).port };
}

const refusal = (e: unknown) =>
  isKytError(e, "VALIDATION_ERROR") ? Object.keys(e.errors) : `not refused: ${String(e)}`;

describe("webhook targets: refused at creation in every spelling", () => {
  it.each(REFUSED_URLS)("%s is refused (%s), a 400 naming url", async (url) => {
    const acme = engineOf(createMemoryStore()).forAccount("acme");
    const error = await acme.webhooks.create({ url, events: ["alert.created"] }).catch((e) => e);
    expect(refusal(error)).toEqual(["url"]);
    expect(String(error.message)).toContain("target refused by policy");
  });

  it("the URL parser normalises the spellings before the check (as WHATWG specifies)", () => {
    for (const url of ["http://127.1/", "http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/"])
      expect(new URL(url).hostname, url).toBe("127.0.0.1");
    expect(new URL("http://[0:0:0:0:0:ffff:7f00:1]/").hostname).toBe("[::ffff:7f00:1]");
  });

  it("names are resolved: one refused address among them refuses the name", async () => {
    const acme = engineOf(createMemoryStore()).forAccount("acme");
    for (const host of ["internal.example", "metadata.example", "mixed.example", "v6-local.example"]) {
      const error = await acme.webhooks
        .create({ url: `https://${host}/hook`, events: ["alert.created"] })
        .catch((e) => e);
      expect(refusal(error), host).toEqual(["url"]);
    }
    // Public names and addresses are accepted; so is a name that does not resolve now (every
    // delivery resolves and checks again).
    for (const url of [
      "https://public.example/hook",
      "https://93.184.216.34/hook",
      "https://[2606:4700:4700::1111]/hook",
      "https://not-yet.example/hook",
    ]) {
      const created = await acme.webhooks.create({ url, events: ["alert.created"] });
      expect(created.url).toBe(url);
    }
  });

  it("names every range as the IANA registries do", () => {
    expect(refusedAddressRange("169.254.169.254")).toMatch(/link-local/);
    expect(refusedAddressRange("100.127.255.255")).toMatch(/CGNAT/);
    expect(refusedAddressRange("100.128.0.0")).toBeNull();
    expect(refusedAddressRange("172.32.0.0")).toBeNull();
    expect(refusedAddressRange("8.8.8.8")).toBeNull();
    expect(refusedAddressRange("2001:4860:4860::8888")).toBeNull();
    expect(refusedAddressRange("not-an-ip")).toMatch(/not an IP/);
  });

  it("allowPrivateTargets lets a 127.0.0.1 receiver work; without it the same URL is refused", async () => {
    const r = await receiver("127.0.0.1");
    const url = `http://127.0.0.1:${r.port}/hook`;
    const strict = engineOf(createMemoryStore()).forAccount("acme");
    expect(
      refusal(await strict.webhooks.create({ url, events: ["manual_check.completed"] }).catch((e) => e)),
    ).toEqual(["url"]);
    const engine = engineOf(createMemoryStore(), { allowPrivateTargets: true });
    const acme = engine.forAccount("acme");
    const hook = await acme.webhooks.create({ url, events: ["manual_check.completed"] });
    await acme.checkAddress({ network: "ETH", address: "0x00000000000000000000000000000000000000aa" });
    await engine.drain();
    expect(r.seen).toHaveLength(1);
    expect((await acme.webhooks.deliveries(hook.id)).items[0]).toMatchObject({ ok: true, status_code: 204 });
  });
});

describe("webhook targets: checked again at each delivery", () => {
  it("a target refused at delivery is recorded as refused, with no status, error detail or time", async () => {
    const r = await receiver("127.0.0.1");
    const store = createMemoryStore();
    // Created while private targets were allowed, delivered by an engine that refuses them.
    const lax = engineOf(store, { allowPrivateTargets: true }).forAccount("acme");
    const hook = await lax.webhooks.create({
      url: `http://127.0.0.1:${r.port}/hook`,
      events: ["manual_check.completed"],
    });
    const strict = engineOf(store);
    await strict
      .forAccount("acme")
      .checkAddress({ network: "ETH", address: "0x00000000000000000000000000000000000000aa" });
    await strict.drain();
    expect(r.seen).toEqual([]);
    const deliveries = (await strict.forAccount("acme").webhooks.deliveries(hook.id)).items;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      ok: false,
      status_code: null,
      error: TARGET_REFUSED,
      duration_ms: 0,
    });
  });

  it("DNS rebinding: the name resolving to an internal address at delivery is refused, and the socket goes to the checked address", async () => {
    // Two receivers on one port: 127.0.0.1 stands for the public receiver (allowed by exact
    // address), 127.0.0.2 for an internal service (loopback, refused).
    const outside = await receiver("127.0.0.1");
    const inside = await receiver("127.0.0.2", outside.port);
    const answers = ["127.0.0.1", "127.0.0.2", "127.0.0.1", "127.0.0.2"];
    const asked: string[] = [];
    const rebinding: HostLookup = async (name) => {
      asked.push(name);
      const address = answers.shift() ?? "127.0.0.2";
      return [{ address, family: 4 }];
    };
    const engine = engineOf(createMemoryStore(), {
      lookup: rebinding,
      allowedTargetAddresses: ["127.0.0.1"],
      maxAttempts: 3,
      backoffBaseMs: 1,
      backoffMaxMs: 1,
    });
    const acme = engine.forAccount("acme");
    // Creation: the first answer (the "public" address) is checked and accepted.
    const hook = await acme.webhooks.create({
      url: `http://rebind.example:${outside.port}/hook`,
      events: ["manual_check.completed"],
    });
    await acme.checkAddress({ network: "ETH", address: "0x00000000000000000000000000000000000000aa" });
    await engine.drain(); // delivery 1: resolves to 127.0.0.2, refused
    await new Promise((r) => setTimeout(r, 5));
    await engine.drain(); // delivery 2: resolves to 127.0.0.1, delivered there
    expect(inside.seen).toEqual([]);
    expect(outside.seen).toEqual([`rebind.example:${outside.port}`]);
    // One resolution per delivery (plus the one at creation): no second lookup to rebind.
    expect(asked).toEqual(["rebind.example", "rebind.example", "rebind.example"]);
    const deliveries = (await acme.webhooks.deliveries(hook.id)).items;
    expect(deliveries.map((d) => [d.attempt, d.ok, d.status_code, d.error])).toEqual([
      [2, true, 204, null],
      [1, false, null, TARGET_REFUSED],
    ]);
  });

  it("the sender alone: refused literals and names never connect; an allowed name connects to the checked address", async () => {
    const r = await receiver("127.0.0.1");
    const policy = createWebhookTargetPolicy({
      allowedAddresses: ["127.0.0.1"],
      lookup: async (name) => [{ address: name === "good.example" ? "127.0.0.1" : "10.0.0.1", family: 4 }],
    });
    const sender = createNodeWebhookSender(policy);
    const post = (url: string) => sender.post(url, {}, "{}", 2_000);
    expect(await post(`http://127.0.0.2:${r.port}/`)).toEqual({ kind: "refused", reason: "loopback" });
    expect(await post(`http://bad.example:${r.port}/`)).toEqual({ kind: "refused", reason: "private" });
    expect(await post(`http://localhost:${r.port}/`)).toMatchObject({ kind: "refused" });
    expect(r.seen).toEqual([]);
    expect(await post(`http://good.example:${r.port}/`)).toEqual({ kind: "answered", status: 204 });
    expect(r.seen).toEqual([`good.example:${r.port}`]);
  });

  it("redirects are not followed: a 3xx is a failed delivery and the Location is never asked", async () => {
    const target = await receiver("127.0.0.1");
    const redirecting = await receiver("127.0.0.1", 0, 302, `http://127.0.0.1:${target.port}/internal`);
    const engine = engineOf(createMemoryStore(), { allowPrivateTargets: true });
    const acme = engine.forAccount("acme");
    const hook = await acme.webhooks.create({
      url: `http://127.0.0.1:${redirecting.port}/hook`,
      events: ["manual_check.completed"],
    });
    await acme.checkAddress({ network: "ETH", address: "0x00000000000000000000000000000000000000aa" });
    await engine.drain();
    expect(redirecting.seen).toHaveLength(1);
    expect(target.seen).toEqual([]);
    expect((await acme.webhooks.deliveries(hook.id)).items[0]).toMatchObject({
      ok: false,
      status_code: 302,
      error: "the receiver answered 302",
    });
  });
});

describe("webhook targets: a resolver that hangs", () => {
  it("counts as unresolved after the lookup timeout: accepted at creation, never connected at delivery", async () => {
    const hanging: HostLookup = () => new Promise(() => {});
    const policy = createWebhookTargetPolicy({ lookup: hanging, lookupTimeoutMs: 50 });
    const started = Date.now();
    expect(await policy.checkHost("slow.example")).toMatchObject({ kind: "unresolved" });
    expect(Date.now() - started).toBeLessThan(1_000);
    const sender = createNodeWebhookSender(policy);
    await expect(sender.post("http://slow.example/", {}, "{}", 2_000)).rejects.toThrow(/longer than 50 ms/);
  });
});

describe("address literals, read without node:net (core is pure)", () => {
  it("counts as an address exactly what node:net's isIP does, for addresses and near misses", async () => {
    const fc = (await import("fast-check")).default;
    const { isIP } = await import("node:net");
    const text = fc.oneof(
      fc.ipV4(),
      fc.ipV6(),
      fc.ipV4Extended(),
      fc.ipV6().map((a) => `${a}%eth0`),
      fc.stringMatching(/^[0-9a-fA-F:.]{1,20}$/),
      fc.string(),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(refusedAddressRange(t) === "not an IP address", t).toBe(isIP(t) === 0);
      }),
      { numRuns: 2_000 },
    );
  });

  it("ranges of the other family never match (an IPv4 quad is not the IPv6 range of the same bits)", () => {
    expect(refusedAddressRange("0.0.0.1")).toBe("unspecified (this network)");
    expect(refusedAddressRange("::ffff:8.8.8.8")).toBe("IPv4-mapped");
    expect(refusedAddressRange("8.8.8.8")).toBeNull();
    expect(refusedAddressRange("2606:4700:4700::1111")).toBeNull();
    expect(refusedAddressRange("fe80::1%eth0")).toBe("link-local");
  });
});
