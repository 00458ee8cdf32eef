import { appSecretKey, openSecret, sealSecret } from './sealed-secret';

/** The HKDF purpose of the key that seals queued emails' bodies ({@link sealEmailBody}). */
export const QUEUED_EMAIL_KEY_PURPOSE = 'grove/queued-email/v1';

/** The parts of an email that may carry a secret (a link's token): sealed together. */
export interface EmailBody {
  text: string;
  html?: string;
}

/**
 * Seals an email's body for a queue whose rows outlive the delivery (pg-boss keeps a finished
 * `mail.send` job for days): AES-256-GCM ({@link sealSecret}) under the key derived from
 * JWT_SECRET for {@link QUEUED_EMAIL_KEY_PURPOSE}, so a read of the queue's tables alone yields
 * no link (docs/decisions/signup-by-email.md).
 * @returns `v1.<iv>.<tag>.<ciphertext>` of the body as JSON
 */
export function sealEmailBody(jwtSecret: string, body: EmailBody): string {
  const { text, html } = body;
  return sealSecret(
    appSecretKey(jwtSecret, QUEUED_EMAIL_KEY_PURPOSE),
    JSON.stringify(html === undefined ? { text } : { text, html }),
  );
}

/**
 * Opens a body sealed by {@link sealEmailBody}.
 * @throws SealedSecretError when `jwtSecret` is not the one it was sealed with, or it was changed
 */
export function openEmailBody(jwtSecret: string, sealed: string): EmailBody {
  return JSON.parse(
    openSecret(appSecretKey(jwtSecret, QUEUED_EMAIL_KEY_PURPOSE), sealed),
  ) as EmailBody;
}
