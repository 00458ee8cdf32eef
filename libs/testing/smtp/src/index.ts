// Test-only (tag type:test): the API's integration tests and the journeys import it; ESLint keeps
// it out of the API's own code (eslint.config.mjs).
export {
  recipient,
  startSmtpCatcher,
  type CaughtMail,
  type SmtpCatcher,
  type SmtpCatcherOptions,
} from './lib/smtp-catcher';
export { queuedSignupLink, type Queryable, type QueuedSignupLink } from './lib/queued-signup-link';
export type { ParsedMail } from 'mailparser';
