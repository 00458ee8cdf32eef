/**
 * Minifies a stylesheet with lightningcss before css-loader turns it into a module (production
 * web builds only). The CSS ends up inside JavaScript (style-loader), where webpack's JS
 * minifier cannot shorten it, so without this every comment and space would ship to browsers.
 * @this {import('webpack').LoaderContext<Record<string, never>>}
 * @param {string | Buffer} source
 */
function cssMinifyLoader(source) {
  const { transform } = require('lightningcss');
  const { code } = transform({
    filename: this.resourcePath,
    code: Buffer.isBuffer(source) ? source : Buffer.from(source),
    minify: true,
  });
  return code.toString();
}

module.exports = cssMinifyLoader;
