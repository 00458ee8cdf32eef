// The landing page's poster as the marketing build emits it (tools/webpack/image-rendition-loader.cjs,
// `renditions` in apps/marketing/webpack.config.js): re-encoded for the size it is shown at, small
// enough to arrive in TCP's first window with the reply's headers (node --test;
// docs/decisions/public-site-prerendered-by-the-marketing-build.md, session 25).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const loader = require('./image-rendition-loader.cjs');
const sharp = require('sharp');
const { renditions } = require('../../apps/marketing/webpack.config.js');

const root = path.resolve(import.meta.dirname, '../..');
const POSTER = 'apps/marketing/src/features/landing/assets/product-tour-poster.webp';

/** Runs the loader as webpack would, with `options`; resolves to the emitted bytes. */
function run(source, options) {
  return new Promise((resolve, reject) => {
    loader.call(
      {
        getOptions: () => options,
        async: () => (error, out) => (error ? reject(error) : resolve(out)),
      },
      source,
    );
  });
}

test('the poster is emitted as a 768×432 AVIF that fits in TCP’s first window (14,600 bytes) with ~500 bytes of headers', async () => {
  const source = fs.readFileSync(path.join(root, POSTER));
  const out = await run(source, renditions['product-tour-poster.webp']);
  const meta = await sharp(out).metadata();
  assert.equal(meta.format, 'heif'); // libvips names AVIF's container HEIF
  assert.equal(meta.compression, 'av1');
  assert.deepEqual([meta.width, meta.height], [768, 432]);
  assert.ok(out.length + 500 <= 14_600, `${out.length} bytes`);
  assert.ok(out.length < source.length / 2, `${out.length} of ${source.length} bytes`);
});

test('an unknown format is refused, not emitted as something else', async () => {
  assert.throws(
    () =>
      loader.call(
        { getOptions: () => ({ width: 10, format: 'gif', quality: 50 }) },
        Buffer.alloc(0),
      ),
    /unknown rendition format gif/,
  );
});
