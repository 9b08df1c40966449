/**
 * @openkyt/cli: the `openkyt` command (serve, worker, keys, migrate, import, demo). Other tools
 * can run a command in-process with `runCli(argv, io, COMMANDS)` or add commands (loaded or
 * lazy) to their own table.
 */
export { type EnvApiKey, parseApiKeysEnv, provisionEnvKeys } from "./api-keys-env.js";
export { type OptionSpec, type ParsedArgs, parseCommandArgs, portOption, stringOption } from "./cli-args.js";
export {
  type CliCommand,
  type CliCommands,
  type CliIo,
  EXIT,
  type LazyCliCommand,
  UsageError,
} from "./cli-command.js";
export { type RunCliOptions, runCli } from "./cli-run.js";
export { cliVersion } from "./cli-version.js";
export { COMMANDS } from "./commands.js";
export {
  type DbTarget,
  DEFAULT_DB,
  describeDbTarget,
  loadPostgres,
  openStore,
  resolveDbTarget,
} from "./db-target.js";
export {
  DEMO_ADDRESSES,
  DEMO_BTC_ADDRESSES,
  DEMO_BTC_STORIES,
  DEMO_REGISTER_EXAMPLE,
  DEMO_STORIES,
  type DemoItem,
  demoBtcTxid,
  demoDataFile,
  describeDemo,
  loadDemoWorld,
  screenDemo,
  shareText,
} from "./demo-world.js";
export { createCliEngine, lazyPdfRenderer } from "./engine-setup.js";
