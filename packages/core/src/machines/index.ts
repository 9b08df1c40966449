export * from "./machines.js";
export * from "./state-machine.js";
