import { cacheControlFor } from './web-apps.service';

describe('cacheControlFor', () => {
  it('revalidates manifests, remote entries and HTML', () => {
    for (const file of [
      '/d/mf-manifest.json',
      '/d/remoteEntry.js',
      '/s/index.html',
      '/s/favicon.ico',
    ]) {
      expect(cacheControlFor(file)).toBe('no-cache');
    }
  });

  it('caches content-hashed files for a year', () => {
    for (const file of [
      '/s/main.3f2a9c1b.js',
      '/d/123.a1b2c3d4e5f6.css',
      '/d/src_Routes-0123abcd.js',
    ]) {
      expect(cacheControlFor(file)).toBe('public, max-age=31536000, immutable');
    }
  });
});
