import { openEmailBody, sealEmailBody } from './sealed-email';
import { SealedSecretError } from './sealed-secret';

const SECRET = 'a-jwt-secret-of-at-least-32-characters';
const body = {
  text: 'Hello Siobhán,\n\nhttps://grove.example/signup/confirm#token=abc_DEF-123\n',
  html: '<p>Hello Siobhán</p>',
};

describe('sealEmailBody / openEmailBody', () => {
  it('opens what it sealed, and the sealed text shows neither the link nor the token', () => {
    const sealed = sealEmailBody(SECRET, body);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('abc_DEF-123');
    expect(openEmailBody(SECRET, sealed)).toEqual(body);
    expect(openEmailBody(SECRET, sealEmailBody(SECRET, { text: 'plain' }))).toEqual({
      text: 'plain',
    });
  });

  it('refuses another JWT_SECRET', () => {
    const sealed = sealEmailBody(SECRET, body);
    expect(() => openEmailBody(`${SECRET}x`, sealed)).toThrow(SealedSecretError);
  });
});
