/**
 * What the shell and every remote share as singletons (docs/architecture.md#front-end): React, the router, the
 * query client and Grove's own web libraries, so a remote uses the shell's session, query cache
 * and design system instead of a copy of its own.
 *
 * `@grove/contracts` is deliberately NOT shared: it holds no state (types, rules, messages, pure
 * functions), and a shared module is bundled whole; unshared, each bundle tree-shakes it and keeps
 * only what it imports (docs/decisions/contracts-bundled-not-shared.md).
 */
const deps = require('../../package.json').dependencies;

const singleton = (requiredVersion) => ({ singleton: true, requiredVersion });
const workspaceLib = { singleton: true, requiredVersion: false, version: '0.0.0' };

function sharedModules() {
  return {
    react: singleton(deps.react),
    'react/jsx-runtime': singleton(deps.react),
    'react-dom': singleton(deps['react-dom']),
    'react-dom/client': singleton(deps['react-dom']),
    'react-router-dom': singleton(deps['react-router-dom']),
    '@tanstack/react-query': singleton(deps['@tanstack/react-query']),
    'react-hook-form': singleton(deps['react-hook-form']),
    '@grove/web-ui': workspaceLib,
    '@grove/web-data-access': workspaceLib,
    '@grove/web-forms': workspaceLib,
  };
}

module.exports = { sharedModules };
