export * from './lib/api-client';
export * from './lib/query-client';
export * from './lib/query-keys';
export * from './lib/session';
export * from './lib/passkeys';
export * from './lib/locale-formats';
export * from './lib/api';
export * from './lib/second-factor-gate';
