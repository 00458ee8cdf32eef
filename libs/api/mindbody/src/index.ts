export * from './lib/mindbody-types';
export * from './lib/mindbody-errors';
export * from './lib/webhook-signature';
export * from './lib/mindbody-client';
export * from './lib/mindbody-operations';
