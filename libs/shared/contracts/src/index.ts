export * from './lib/email-key';
export * from './lib/money';
export * from './lib/pricing';
export * from './lib/messages';
export * from './lib/rules';
export * from './lib/validate';
export * from './lib/api-types';
export * from './lib/remotes';
