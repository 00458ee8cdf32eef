import {
  isKnownPagePath,
  REMOTE_NAMES,
  REMOTE_ROUTES,
  SHELL_PAGES,
  remoteForPath,
} from './remotes';

describe('remoteForPath', () => {
  it('sends public pages and unknown paths to the marketing remote', () => {
    for (const path of [
      '/',
      '/pricing',
      '/about',
      '/contact',
      '/privacyPolicy',
      '/landingPage',
      '/nope',
    ]) {
      expect(remoteForPath(path)).toEqual({ remote: 'marketing', expose: 'Routes' });
    }
  });

  it('knows the signed-in screens and the referral join page', () => {
    expect(remoteForPath('/dashboard')).toEqual({ remote: 'dashboard', expose: 'Routes' });
    expect(remoteForPath('/dashboard/prospective-members')).toEqual({
      remote: 'dashboard',
      expose: 'Routes',
    });
    expect(remoteForPath('/referral-links')).toEqual({
      remote: 'dashboard',
      expose: 'ReferralLinks',
    });
    expect(remoteForPath('/mindbody-setup')).toEqual({ remote: 'integrations', expose: 'Routes' });
    expect(remoteForPath('/referral/abc123')).toEqual({ remote: 'referral', expose: 'Routes' });
  });

  it('preloads nothing for the shell’s own login, signup and password reset pages', () => {
    expect(remoteForPath('/login')).toBeNull();
    expect(remoteForPath('/signup')).toBeNull();
    expect(remoteForPath('/forgot-password')).toBeNull();
    expect(remoteForPath('/reset-password')).toBeNull();
  });

  it('has one route per first segment, none of them a shell page, each with a known remote', () => {
    const segments = REMOTE_ROUTES.map((route) => route.segment);
    expect(new Set(segments).size).toBe(segments.length);
    for (const route of REMOTE_ROUTES) {
      expect((SHELL_PAGES as readonly string[]).includes(route.segment)).toBe(false);
      expect(REMOTE_NAMES).toContain(route.remote);
      expect(remoteForPath(`/${route.segment}/x`)).toEqual({
        remote: route.remote,
        expose: route.expose,
      });
    }
  });
});

describe('isKnownPagePath (the HTTP status of the 404 screen)', () => {
  it.each([
    '/',
    '/pricing',
    '/privacyPolicy/',
    '/landingPage',
    '/login',
    '/signup',
    '/signup/confirm',
    '/dashboard',
    '/dashboard/members/42',
    '/referral-links',
    '/mindbody-setup',
    '/member',
  ])('%s is a screen', (path) => expect(isKnownPagePath(path)).toBe(true));
  it.each([
    '/no-such-page',
    '/pricing/extra',
    '/login/again',
    '/signup/again',
    '/signup/confirm/x',
    '/Pricing',
    '/wp-admin',
  ])('%s is not', (path) => expect(isKnownPagePath(path)).toBe(false));
});
