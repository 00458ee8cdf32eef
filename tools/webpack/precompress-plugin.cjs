/**
 * Emits a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy next to every built JS,
 * CSS, HTML and SVG file of a production web build, so the API serves them without compressing
 * on each request (`apps/api/src/app/platform/web/web-apps.service.ts`); why:
 * docs/decisions/precompressed-assets.md.
 */
const zlib = require('node:zlib');

const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
/** Below this size the headers outweigh the saving. */
const MIN_BYTES = 1024;

class PrecompressPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        // After every other plugin (minifier, federation manifest, HTML) has written its assets.
        { name: 'PrecompressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          for (const asset of compilation.getAssets()) {
            if (!COMPRESSIBLE.test(asset.name) || asset.name.endsWith('.map')) continue;
            const source = asset.source.buffer();
            if (source.length < MIN_BYTES) continue;
            const br = zlib.brotliCompressSync(source, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            });
            const gz = zlib.gzipSync(source, { level: 9 });
            const info = { compressed: true, immutable: asset.info.immutable, development: true };
            compilation.emitAsset(`${asset.name}.br`, new sources.RawSource(br), info);
            compilation.emitAsset(`${asset.name}.gz`, new sources.RawSource(gz), info);
          }
        },
      );
    });
  }
}

module.exports = { PrecompressPlugin };
