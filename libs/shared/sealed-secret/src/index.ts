// Node only (node:crypto): the API and the tests that read what it keeps; never a web app.
export { appSecretKey, openSecret, sealSecret, SealedSecretError } from './lib/sealed-secret';
export {
  openEmailBody,
  QUEUED_EMAIL_KEY_PURPOSE,
  sealEmailBody,
  type EmailBody,
} from './lib/sealed-email';
