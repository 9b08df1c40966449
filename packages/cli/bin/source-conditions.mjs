// Module hooks for running the CLI from its TypeScript sources: resolve workspace packages
// through their "source" export condition (as `node --conditions=source` would).
export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes("source")
    ? context.conditions
    : [...context.conditions, "source"];
  return nextResolve(specifier, { ...context, conditions });
}
