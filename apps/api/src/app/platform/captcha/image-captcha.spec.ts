import { checkImageCaptcha, createImageCaptcha } from './image-captcha';

jest.mock('svg-captcha', () => ({
  create: () => ({ text: 'K7PQ2', data: '<svg><path d="M0 0"/></svg>' }),
}));

const KEY = 'image-captcha-unit-key-5f2c9a';

describe('image captcha', () => {
  it('accepts the drawn code, whatever its case and surrounding spaces', () => {
    const { svg, token } = createImageCaptcha(KEY, 300);
    expect(svg).toContain('<svg');
    expect(token).not.toContain('K7PQ2');
    expect(checkImageCaptcha(KEY, token, 'K7PQ2')).not.toBeNull();
    expect(checkImageCaptcha(KEY, token, ' k7pq2 ')?.signature).toMatch(/^image:/);
  });

  it('refuses another code, another key, a changed token or an expired one', () => {
    const { token } = createImageCaptcha(KEY, 300);
    expect(checkImageCaptcha(KEY, token, 'K7PQ3')).toBeNull();
    expect(checkImageCaptcha(`${KEY}-other`, token, 'K7PQ2')).toBeNull();
    const [expires, nonce, signature] = token.split('.');
    expect(
      checkImageCaptcha(KEY, `${Number(expires) + 600}.${nonce}.${signature}`, 'K7PQ2'),
    ).toBeNull();
    expect(checkImageCaptcha(KEY, '', 'K7PQ2')).toBeNull();
    jest.useFakeTimers({ now: Date.now() + 301_000 });
    try {
      expect(checkImageCaptcha(KEY, token, 'K7PQ2')).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  it('accepts the configured test answer for a token that has not expired', () => {
    const { token } = createImageCaptcha(KEY, 300);
    expect(checkImageCaptcha(KEY, token, 'journey-code', 'journey-code')).not.toBeNull();
    expect(checkImageCaptcha(KEY, token, 'other-code', 'journey-code')).toBeNull();
  });
});
