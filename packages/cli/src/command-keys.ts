/**
 * `openkyt keys create|list|revoke|seal`: API keys of an account. `create` prints the key id and
 * the secret once (they are not shown again); `list` never shows secrets; `revoke` takes effect
 * at once, also for a running server; `seal` re-seals every stored secret (API keys and
 * webhooks) under the vault key, in one transaction.
 */
import { type ApiKeyInfo, createSecretVault, type Engine, sealStoredSecrets } from "@openkyt/core";
import { type ParsedArgs, parseCommandArgs, stringOption } from "./cli-args.js";
import { type CliCommand, type CliIo, EXIT, UsageError } from "./cli-command.js";
import { openStore, resolveDbTarget } from "./db-target.js";
import { createCliEngine, PLAIN_SECRETS_WARNING } from "./engine-setup.js";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const shown = (k: ApiKeyInfo) => ({
  id: k.id,
  account: k.accountId,
  created_at: iso(k.createdAt),
  revoked_at: iso(k.revokedAt),
});

function account(args: ParsedArgs, required: boolean): string | undefined {
  const value = stringOption(args, "account");
  if (required && !value) throw new UsageError("--account NAME is required");
  return value;
}

const ACTIONS: Readonly<Record<string, (engine: Engine, args: ParsedArgs, io: CliIo) => Promise<number>>> = {
  async create(engine, args, io) {
    const key = await engine.apiKeys.create(account(args, true) ?? "");
    if (!engine.apiKeys.encryptsSecrets) io.stderr(PLAIN_SECRETS_WARNING);
    if (args.values.json) {
      io.stdout(`${JSON.stringify({ ...shown(key), secret: key.secret })}\n`);
    } else {
      io.stdout(`key id: ${key.id}\nsecret: ${key.secret}\naccount: ${key.accountId}\n`);
      io.stderr("Keep the secret now: it is not shown again.\n");
    }
    return EXIT.OK;
  },
  async list(engine, args, io) {
    const keys = (await engine.apiKeys.list(account(args, true) ?? "")).map(shown);
    if (args.values.json) io.stdout(`${JSON.stringify(keys)}\n`);
    else
      for (const k of keys)
        io.stdout(`${k.id}  created ${k.created_at}  ${k.revoked_at ? `revoked ${k.revoked_at}` : "live"}\n`);
    return EXIT.OK;
  },
  async revoke(engine, args, io) {
    const id = args.positionals[1];
    if (!id) throw new UsageError("keys revoke needs the key id");
    const owner = account(args, false);
    if (owner && !(await engine.apiKeys.list(owner)).some((k) => k.id === id)) {
      io.stderr(`no key ${id} in account ${owner}\n`);
      return EXIT.FAILED;
    }
    const revoked = await engine.apiKeys.revoke(id);
    if (!revoked) {
      io.stderr(`no live key ${id}\n`);
      return EXIT.FAILED;
    }
    io.stdout(args.values.json ? `${JSON.stringify({ revoked: id })}\n` : `revoked ${id}\n`);
    return EXIT.OK;
  },
  async seal(engine, args, io) {
    const vault = createSecretVault(io.env.OPENKYT_VAULT_KEY || undefined);
    const { sealed, total } = await sealStoredSecrets(engine.store, vault);
    io.stdout(
      args.values.json
        ? `${JSON.stringify({ sealed, total })}\n`
        : `sealed ${sealed} of ${total} stored secrets under the vault key\n`,
    );
    return EXIT.OK;
  },
};

/** The keys command. */
export const keysCommand: CliCommand = {
  name: "keys",
  summary: "create, list, revoke or seal API keys of an account",
  usage: `usage: openkyt keys create --account NAME [--db ...] [--json]
       openkyt keys list --account NAME [--db ...] [--json]
       openkyt keys revoke KEY_ID [--account NAME] [--db ...] [--json]
       openkyt keys seal [--db ...] [--json]

  create prints the key id and the secret once; list never shows secrets; revoke is immediate.
  Set OPENKYT_VAULT_KEY (32+ characters) to keep secrets encrypted at rest (the server needs the same value).
  seal encrypts every stored secret kept unencrypted or in an older format under OPENKYT_VAULT_KEY,
  in one transaction (a server with a vault key refuses unencrypted secrets until then).`,
  async run(argv, io) {
    const args = parseCommandArgs(argv, { db: { type: "string" }, account: { type: "string" } }, 2);
    const name = args.positionals[0];
    const action = name === undefined ? undefined : ACTIONS[name];
    if (!action)
      throw new UsageError(
        name ? `unknown keys action: ${name}` : "keys needs an action: create, list, revoke or seal",
      );
    if (name !== "revoke" && args.positionals.length > 1)
      throw new UsageError(`unexpected argument: ${args.positionals[1]}`);
    const store = await openStore(resolveDbTarget(stringOption(args, "db"), io.env), { migrateSqlite: true });
    try {
      return await action(createCliEngine(store, io.env), args, io);
    } finally {
      await store.close();
    }
  },
};
