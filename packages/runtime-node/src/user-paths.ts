/**
 * Paths as the person who typed the command meant them. `npm run`, `npm start` and `pnpm
 * --filter X start` run a package's script in that package's folder, not where the command was
 * typed (they say where in INIT_CWD), so a relative `--db openkyt-demo.db` would silently name
 * a file in another folder. A relative path is therefore resolved against the folder the
 * command was typed in: INIT_CWD when this process is the script npm or pnpm runs (its
 * package.json is in the working directory), else the working directory. INIT_CWD is inherited
 * by every process below a script, so it is trusted only in the script's own folder.
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

type Env = Readonly<Record<string, string | undefined>>;

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/** The folder the command was typed in (see above). */
export function invocationDir(env: Env = process.env, cwd: string = process.cwd()): string {
  const typedIn = env.INIT_CWD;
  const manifest = env.npm_package_json;
  if (!typedIn || !manifest || !env.npm_lifecycle_event) return cwd;
  return real(dirname(manifest)) === real(cwd) ? typedIn : cwd;
}

/**
 * A path as its user meant it: absolute as given; relative to {@link invocationDir}. When the
 * command was typed where it runs (the usual case), the path comes back as given.
 */
export function userPath(path: string, env: Env = process.env, cwd: string = process.cwd()): string {
  if (isAbsolute(path)) return path;
  const base = invocationDir(env, cwd);
  return real(base) === real(cwd) ? path : resolve(base, path);
}

/**
 * A database file the program reads and does not create: its path resolved as {@link userPath};
 * an error naming the file looked for, where relative paths start, and how to make one, when it
 * does not exist (opening it would create an empty database in which nothing is found).
 */
export function existingDatabase(
  path: string,
  howToMakeOne: string,
  env: Env = process.env,
  cwd: string = process.cwd(),
): string {
  if (path === ":memory:") return path;
  const resolved = userPath(path, env, cwd);
  if (existsSync(resolved)) return resolved;
  throw new Error(
    `no database at ${resolve(cwd, resolved)}` +
      (isAbsolute(path)
        ? ""
        : ` (${path} is relative to ${invocationDir(env, cwd)}, where the command was typed)`) +
      `: ${howToMakeOne}`,
  );
}
