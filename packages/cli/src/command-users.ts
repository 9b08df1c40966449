/**
 * `openkyt users create|list|disable`: the people who sign in to the console. `create` takes the
 * password from standard input (`--password-stdin`), a hidden prompt on a terminal, or generates
 * one and prints it once; `disable` ends the user's sessions at once, also on a running server.
 */
import { createUserDirectory, generatePassword, type UserDirectory, type UserInfo } from "@openkyt/http";
import { type ParsedArgs, parseCommandArgs, stringOption } from "./cli-args.js";
import { type CliCommand, type CliIo, EXIT, UsageError } from "./cli-command.js";
import { openStore, resolveDbTarget } from "./db-target.js";
import { promptHidden, readPasswordLine } from "./password-input.js";

function required(args: ParsedArgs, name: string, what: string): string {
  const value = stringOption(args, name);
  if (!value) throw new UsageError(`--${name} ${what} is required`);
  return value;
}

/** The new user's password and whether it was generated (then it is printed once). */
async function passwordOf(args: ParsedArgs, io: CliIo): Promise<{ password: string; generated: boolean }> {
  if (args.values["password-stdin"] === true) return { password: await readPasswordLine(), generated: false };
  if (args.values.generate !== true && process.stdin.isTTY) {
    const password = await promptHidden("password: ");
    if ((await promptHidden("again: ")) !== password) throw new UsageError("the two passwords differ");
    return { password, generated: false };
  }
  if (args.values.generate !== true) {
    io.stderr("no password given (--password-stdin) and no terminal to ask on: generating one\n");
  }
  return { password: generatePassword(), generated: true };
}

const line = (u: UserInfo) =>
  `${u.email}  ${u.role}  account ${u.account}  created ${u.created_at}  ${u.disabled_at ? `disabled ${u.disabled_at}` : "active"}\n`;

const ACTIONS: Readonly<
  Record<string, (users: UserDirectory, args: ParsedArgs, io: CliIo) => Promise<number>>
> = {
  async create(users, args, io) {
    const accountId = required(args, "account", "NAME");
    const email = required(args, "email", "ADDRESS");
    const role = required(args, "role", "analyst|admin");
    const { password, generated } = await passwordOf(args, io);
    const user = await users.create({ accountId, email, role, password });
    if (args.values.json) {
      io.stdout(`${JSON.stringify(generated ? { ...user, password } : user)}\n`);
    } else {
      io.stdout(`created ${line(user)}`);
      if (generated) {
        io.stdout(`password: ${password}\n`);
        io.stderr("Keep the password now: it is not shown again.\n");
      }
    }
    return EXIT.OK;
  },
  async list(users, args, io) {
    const list = await users.list(required(args, "account", "NAME"));
    if (args.values.json) io.stdout(`${JSON.stringify(list)}\n`);
    else for (const u of list) io.stdout(line(u));
    return EXIT.OK;
  },
  async disable(users, args, io) {
    const email = args.positionals[1] ?? stringOption(args, "email");
    if (!email) throw new UsageError("users disable needs the user's e-mail");
    if (!(await users.disable(email))) {
      io.stderr(`no active user ${email}\n`);
      return EXIT.FAILED;
    }
    io.stdout(args.values.json ? `${JSON.stringify({ disabled: email })}\n` : `disabled ${email}\n`);
    return EXIT.OK;
  },
};

/** The users command. */
export const usersCommand: CliCommand = {
  name: "users",
  summary: "create, list or disable the console's users of an account",
  usage: `usage: openkyt users create --account NAME --email ADDRESS --role analyst|admin [--password-stdin|--generate] [--db ...] [--json]
       openkyt users list --account NAME [--db ...] [--json]
       openkyt users disable EMAIL [--db ...] [--json]

  create asks for the password on a terminal (twice, hidden), reads one line of standard input with
  --password-stdin, or generates one and prints it once (--generate, or no terminal). Passwords
  have at least 12 characters and are kept hashed (scrypt). An e-mail is one user across all accounts.
  Analysts work alerts and run checks; admins also change risk models and webhooks.
  disable refuses the user's sign-in and ends their sessions at once.`,
  async run(argv, io) {
    const args = parseCommandArgs(
      argv,
      {
        db: { type: "string" },
        account: { type: "string" },
        email: { type: "string" },
        role: { type: "string" },
        "password-stdin": { type: "boolean" },
        generate: { type: "boolean" },
      },
      2,
    );
    const name = args.positionals[0];
    const action = name === undefined ? undefined : ACTIONS[name];
    if (!action)
      throw new UsageError(
        name ? `unknown users action: ${name}` : "users needs an action: create, list or disable",
      );
    if (name !== "disable" && args.positionals.length > 1)
      throw new UsageError(`unexpected argument: ${args.positionals[1]}`);
    const store = await openStore(resolveDbTarget(stringOption(args, "db"), io.env), { migrateSqlite: true });
    try {
      return await action(createUserDirectory({ store }), args, io);
    } finally {
      await store.close();
    }
  },
};
