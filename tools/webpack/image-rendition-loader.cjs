/**
 * Re-encodes an image for the size it is shown at, with sharp (libvips), when a web app's build
 * imports it (`renditions` of tools/webpack/web-app.cjs): the source stays in the repository, the
 * build emits the rendition. Deterministic for one sharp version, so the remote's bundle and its
 * prerender build name the same content-hashed file.
 * Options: `width` (pixels; the height keeps the aspect ratio), `format` ('avif' | 'webp'),
 * `quality` (1–100, the encoder's).
 * @this {import('webpack').LoaderContext<{ width: number, format: 'avif' | 'webp', quality: number }>}
 * @param {Buffer} source the source image's bytes
 */
function imageRenditionLoader(source) {
  const { width, format, quality } = this.getOptions();
  if (!['avif', 'webp'].includes(format)) throw new Error(`unknown rendition format ${format}`);
  const callback = this.async();
  const sharp = require('sharp');
  sharp(source)
    .resize({ width, kernel: 'lanczos3' })
    [format]({ quality, effort: 6 })
    .toBuffer()
    .then((image) => callback(null, image), callback);
}

module.exports = imageRenditionLoader;
module.exports.raw = true;
