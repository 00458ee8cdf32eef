export * from './lib/api-client';
export * from './lib/query-client';
export * from './lib/session';
export * from './lib/members';
export * from './lib/referrals';
export * from './lib/prospects';
export * from './lib/mindbody';
