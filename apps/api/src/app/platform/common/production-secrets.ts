/**
 * The production check of Grove's secrets (OWASP ASVS 4.0.3 V2.10.4, V3.5.2, V6.4.1, V14.1):
 * `NODE_ENV=production` refuses to start with a secret that is missing, short or well known, so a
 * deployment copied from the repository cannot run with a key anyone can read (a known
 * JWT_SECRET lets anyone mint a session for any business).
 */

/** The secrets checked, with what each protects (for the error message). */
export const PRODUCTION_SECRETS = {
  JWT_SECRET: 'signs session tokens',
  ALTCHA_HMAC_KEY: "signs the contact form's captcha challenges",
  MINDBODY_CREDENTIALS_KEY: 'encrypts the stored Mindbody credentials',
  MINDBODY_API_KEY: "identifies Grove's developer account to Mindbody",
} as const;

/**
 * The Mindbody sandbox's API key, MINDBODY_API_KEY's development default: in production it counts
 * as unset (a real developer key is required).
 */
export const MINDBODY_SANDBOX_API_KEY = 'grove-sandbox-key';

/** Secrets issued by someone else (Mindbody): their length and alphabet are not Grove's to check. */
const ISSUED_SECRETS: readonly ProductionSecretName[] = ['MINDBODY_API_KEY'];

export type ProductionSecretName = keyof typeof PRODUCTION_SECRETS;

/** Fewest characters of JWT_SECRET and ALTCHA_HMAC_KEY in production (≥ 256 bits of base64/hex text). */
export const PRODUCTION_SECRET_MIN_LENGTH = 32;

/**
 * Secret values that appear in Grove's repository or its history (compose defaults, docs,
 * tests, benchmarks), compared case-insensitively. `app-config.spec.ts` scans the repository for
 * every literal given to these variables and fails when one is not refused, so a value added to
 * a doc or example must be added here (or be caught by `PLACEHOLDER_WORDS`).
 */
export const KNOWN_SECRET_VALUES: readonly string[] = [
  'change-me-to-a-long-random-secret',
  'change-me-to-another-long-random-secret',
  'integration-test-secret-0123456789',
  'contact-test-hmac-key-0123456789',
  'bench-secret-bench-secret-bench-secret',
  'bench-altcha-key-bench-altcha-key',
  'a-very-long-secret-value',
  MINDBODY_SANDBOX_API_KEY,
];

/**
 * Words that mark a placeholder rather than a generated secret, looked for in the value
 * lower-cased with everything but letters and digits removed ('Change_Me!' → 'changeme'). All
 * have five or more letters, so a random 32-byte base64 value contains one with odds near 1e-5.
 */
const PLACEHOLDER_WORDS = [
  'changeme',
  'changeit',
  'changethis',
  'replaceme',
  'secret',
  'password',
  'passwd',
  'example',
  'placeholder',
  'sample',
  'dummy',
  'default',
  'insecure',
  'notsecure',
  'grove',
  'qwerty',
  '12345',
];

/** Fewest distinct characters a generated secret shows (random hex of 32 characters has ~14). */
const MIN_DISTINCT_CHARACTERS = 8;

/**
 * Why a secret value is an obvious placeholder or a value found in the repository, or null when
 * it looks generated: listed in `KNOWN_SECRET_VALUES`, containing a placeholder word ('changeme',
 * 'secret', 'example'…), fewer than 8 distinct characters ('xxxx…', 'abab…', base64 of one
 * repeated byte), or mostly an ascending/descending run ('abcdef…', '0123456789…').
 */
export function wellKnownSecretReason(value: string): string | null {
  const lower = value.toLowerCase();
  if (KNOWN_SECRET_VALUES.includes(lower)) return 'is a value published in the Grove repository';
  const letters = lower.replace(/[^a-z0-9]/g, '');
  const word = PLACEHOLDER_WORDS.find((placeholder) => letters.includes(placeholder));
  if (word) return `looks like a placeholder (contains '${word}')`;
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) return 'repeats a few characters';
  let steps = 0;
  for (let i = 1; i < value.length; i += 1) {
    if (Math.abs(value.charCodeAt(i) - value.charCodeAt(i - 1)) === 1) steps += 1;
  }
  if (steps * 2 >= value.length - 1) return 'is a run of consecutive characters';
  return null;
}

/**
 * Checks the production secrets. `values` holds each as configured (undefined when unset);
 * `required` names those that must be present (ALTCHA_HMAC_KEY is optional when reCAPTCHA or
 * Turnstile is configured, but checked when given).
 * @returns one line per problem, e.g. "JWT_SECRET must be at least 32 characters in production
 *   (it signs session tokens)…"; empty when every secret is fit for production
 */
export function productionSecretProblems(
  values: Readonly<Record<ProductionSecretName, string | undefined>>,
  required: readonly ProductionSecretName[],
): string[] {
  const problems: string[] = [];
  const advice = 'generate one with `openssl rand -base64 32`';
  for (const name of Object.keys(PRODUCTION_SECRETS) as ProductionSecretName[]) {
    const value = values[name];
    const role = PRODUCTION_SECRETS[name];
    if (ISSUED_SECRETS.includes(name)) {
      if (!value || value.toLowerCase() === MINDBODY_SANDBOX_API_KEY) {
        if (required.includes(name))
          problems.push(
            `${name} is required when NODE_ENV=production (it ${role}); use the API key of Grove's Mindbody developer account, not the sandbox's`,
          );
        continue;
      }
      const reason = wellKnownSecretReason(value);
      if (reason)
        problems.push(`${name} ${reason}: use the API key Mindbody issued to Grove (it ${role})`);
      continue;
    }
    if (!value) {
      if (required.includes(name))
        problems.push(`${name} is required when NODE_ENV=production (it ${role}); ${advice}`);
      continue;
    }
    if (name === 'MINDBODY_CREDENTIALS_KEY' && Buffer.from(value, 'base64').length !== 32) {
      problems.push(`${name} must be 32 bytes, base64-encoded (\`openssl rand -base64 32\`)`);
      continue;
    }
    if (name !== 'MINDBODY_CREDENTIALS_KEY' && value.length < PRODUCTION_SECRET_MIN_LENGTH) {
      problems.push(
        `${name} must be at least ${PRODUCTION_SECRET_MIN_LENGTH} characters in production (it ${role}); ${advice}`,
      );
      continue;
    }
    // A base64 key's entropy is in its bytes: '0123…' encoded does not look like a run.
    const reason =
      wellKnownSecretReason(value) ??
      (name === 'MINDBODY_CREDENTIALS_KEY'
        ? wellKnownSecretReason(Buffer.from(value, 'base64').toString('latin1'))
        : null);
    if (reason)
      problems.push(
        `${name} ${reason}: anyone can read it, so it cannot protect production (it ${role}); ${advice}`,
      );
  }
  if (values.JWT_SECRET && values.JWT_SECRET === values.ALTCHA_HMAC_KEY) {
    problems.push('JWT_SECRET and ALTCHA_HMAC_KEY must be different secrets');
  }
  return problems;
}

/**
 * Refuses production secrets that are missing, short or well known (`productionSecretProblems`);
 * ALTCHA_HMAC_KEY is only required when neither reCAPTCHA nor Turnstile is configured;
 * MINDBODY_API_KEY must be set and not the sandbox's key (issue 22: production sent the sandbox's
 * key to Mindbody).
 * @param otherCaptcha true when reCAPTCHA or Turnstile has both its keys
 * @param otherProblems further production problems to list in the same error (e.g. a missing
 *   PUBLIC_ORIGIN: `productionServerProblems`)
 * @throws Error 'Invalid configuration:' with one line per problem (the API refuses to start)
 */
export function assertProductionSecrets(
  values: Readonly<Partial<Record<ProductionSecretName, string>>>,
  otherCaptcha: boolean,
  otherProblems: readonly string[] = [],
): void {
  const secretProblems = productionSecretProblems(
    {
      JWT_SECRET: values.JWT_SECRET,
      ALTCHA_HMAC_KEY: values.ALTCHA_HMAC_KEY,
      MINDBODY_CREDENTIALS_KEY: values.MINDBODY_CREDENTIALS_KEY,
      MINDBODY_API_KEY: values.MINDBODY_API_KEY,
    },
    otherCaptcha
      ? ['JWT_SECRET', 'MINDBODY_CREDENTIALS_KEY', 'MINDBODY_API_KEY']
      : ['JWT_SECRET', 'ALTCHA_HMAC_KEY', 'MINDBODY_CREDENTIALS_KEY', 'MINDBODY_API_KEY'],
  );
  const problems = [...secretProblems, ...otherProblems];
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}
