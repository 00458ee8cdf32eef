import { createHmac } from 'node:crypto';
import { signWebhookBody, verifyWebhookSignature } from './webhook-signature';

describe('X-Mindbody-Signature', () => {
  const key = 'c2VjcmV0LWtleS1vZi10aGUtc3Vic2NyaXB0aW9u';
  const body =
    '{"messageId":"m-1","eventId":"client.created","eventData":{"clientId":"100001","firstName":"Zoë"}}';

  it('is sha256= and the base64 HMAC-SHA256 of the raw body bytes', () => {
    const expected = `sha256=${createHmac('sha256', key).update(Buffer.from(body, 'utf8')).digest('base64')}`;
    expect(signWebhookBody(body, key)).toBe(expected);
    expect(signWebhookBody(Buffer.from(body, 'utf8'), key)).toBe(expected);
  });

  it('accepts the right signature for string or Buffer bodies', () => {
    const header = signWebhookBody(body, key);
    expect(verifyWebhookSignature(body, header, key)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), header, key)).toBe(true);
  });

  it('refuses a changed body, another key, and missing, repeated or malformed headers', () => {
    const header = signWebhookBody(body, key);
    expect(verifyWebhookSignature(body.replace('100001', '100002'), header, key)).toBe(false);
    expect(verifyWebhookSignature(body, header, 'another-key')).toBe(false);
    expect(verifyWebhookSignature(body, undefined, key)).toBe(false);
    expect(verifyWebhookSignature(body, [header, header], key)).toBe(false);
    expect(verifyWebhookSignature(body, header.slice('sha256='.length), key)).toBe(false);
    expect(verifyWebhookSignature(body, `${header}AA`, key)).toBe(false);
    expect(verifyWebhookSignature(body, header, '')).toBe(false);
  });
});
