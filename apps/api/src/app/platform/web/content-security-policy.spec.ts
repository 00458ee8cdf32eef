import { contentSecurityPolicy, inlinePageContentSecurityPolicy } from './content-security-policy';

/** The policy as directive → sources. */
function parse(header: string): Map<string, string[]> {
  return new Map(
    header.split('; ').map((directive) => {
      const [name, ...sources] = directive.split(' ');
      return [name, sources];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  const remoteDirectives = [
    'script-src',
    'style-src',
    'img-src',
    'font-src',
    'media-src',
    'connect-src',
  ];

  it('with every remote on Grove’s origin: self only, no blob: workers, no third-party frame', () => {
    const policy = parse(contentSecurityPolicy({ remoteOrigins: [], captchaProvider: 'altcha' }));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
    expect(policy.get('media-src')).toEqual(["'self'"]);
    expect(policy.get('worker-src')).toEqual(["'self'"]);
    expect(policy.get('frame-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
  });

  it('adds each remote origin (once) to every directive a remote’s files need', () => {
    const remoteOrigins = [
      'https://cdn.example.com',
      'http://127.0.0.1:4500',
      'https://cdn.example.com',
    ];
    const policy = parse(contentSecurityPolicy({ remoteOrigins, captchaProvider: 'altcha' }));
    for (const directive of remoteDirectives) {
      const sources = policy.get(directive) ?? [];
      expect({ directive, sources: sources.filter((source) => source.includes('://')) }).toEqual({
        directive,
        sources: ['https://cdn.example.com', 'http://127.0.0.1:4500'],
      });
      expect(sources[0]).toBe("'self'");
    }
    // Workers cannot start from another origin's URL: altcha's start from a blob: importing it.
    expect(policy.get('worker-src')).toEqual(["'self'", 'blob:']);
    // Nothing else opens up to the remote.
    for (const directive of [
      'default-src',
      'frame-src',
      'base-uri',
      'form-action',
      'frame-ancestors',
    ]) {
      expect(policy.get(directive)).not.toContain('https://cdn.example.com');
    }
  });

  it('lets exactly the named inline scripts run (by SHA-256), after the remotes', () => {
    const policy = parse(
      contentSecurityPolicy({
        remoteOrigins: ['https://cdn.example.com'],
        captchaProvider: 'altcha',
        inlineScriptHashes: ['bG9hZGVy'],
      }),
    );
    expect(policy.get('script-src')).toEqual([
      "'self'",
      'https://cdn.example.com',
      "'sha256-bG9hZGVy'",
    ]);
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it('allows reCAPTCHA’s script and frame hosts only when reCAPTCHA is configured', () => {
    const policy = parse(
      contentSecurityPolicy({ remoteOrigins: [], captchaProvider: 'recaptcha' }),
    );
    expect(policy.get('script-src')).toEqual([
      "'self'",
      'https://www.google.com/recaptcha/',
      'https://www.gstatic.com/recaptcha/',
    ]);
    expect(policy.get('frame-src')).toEqual([
      "'self'",
      'https://www.google.com/recaptcha/',
      'https://recaptcha.google.com/recaptcha/',
    ]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });

  it('allows Turnstile’s host for its script and frame when Turnstile is configured, next to the remotes', () => {
    const policy = parse(
      contentSecurityPolicy({
        remoteOrigins: ['https://cdn.example.com'],
        captchaProvider: 'turnstile',
      }),
    );
    expect(policy.get('script-src')).toEqual([
      "'self'",
      'https://cdn.example.com',
      'https://challenges.cloudflare.com',
    ]);
    expect(policy.get('frame-src')).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(policy.get('style-src')).not.toContain('https://challenges.cloudflare.com');
  });
});

describe('inlinePageContentSecurityPolicy', () => {
  it('allows exactly the named inline blocks, nothing from anywhere else', () => {
    const policy = parse(
      inlinePageContentSecurityPolicy({ scripts: ['c2NyaXB0'], styles: ['c3R5bGU='] }),
    );
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'sha256-c2NyaXB0'"]);
    expect(policy.get('style-src')).toEqual(["'sha256-c3R5bGU='"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
  });

  it('without assets (no referral build): no script and no style at all', () => {
    const policy = parse(inlinePageContentSecurityPolicy({ scripts: [], styles: [] }));
    expect(policy.get('script-src')).toEqual(["'none'"]);
    expect(policy.get('style-src')).toEqual(["'none'"]);
  });
});
