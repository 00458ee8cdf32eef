import { randomBytes } from 'node:crypto';
import { openSecret, sealSecret, SealedSecretError } from './mindbody-crypto';

describe('Mindbody secret sealing (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and never gives the same ciphertext twice', () => {
    const a = sealSecret(key, 'sandbox-pass-1234');
    const b = sealSecret(key, 'sandbox-pass-1234');
    expect(a).not.toEqual(b);
    expect(a).not.toContain('sandbox-pass');
    expect(openSecret(key, a)).toBe('sandbox-pass-1234');
    expect(openSecret(key, b)).toBe('sandbox-pass-1234');
  });

  it('refuses another key, a changed byte and garbage', () => {
    const sealed = sealSecret(key, 'secret');
    expect(() => openSecret(randomBytes(32), sealed)).toThrow(SealedSecretError);
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3], 'base64url');
    data[0] ^= 1;
    expect(() =>
      openSecret(key, [parts[0], parts[1], parts[2], data.toString('base64url')].join('.')),
    ).toThrow(SealedSecretError);
    expect(() => openSecret(key, 'not-sealed')).toThrow(SealedSecretError);
  });
});
