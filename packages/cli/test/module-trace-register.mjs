// `node --import ./module-trace-register.mjs ...`: registers module-trace-hooks.mjs.
import { register } from "node:module";

register("./module-trace-hooks.mjs", import.meta.url);
