/**
 * Host only: adds `<link rel="preload" as="script">` (and `as="style"`) tags to the shell's
 * index.html for the chunks holding the libraries the shell shares (React, the router, the query
 * client, Grove's web libraries). Module Federation only asks for them after main.js has run;
 * preloaded, they download alongside it: one round trip less before the first page renders.
 * With `shareStrategy: 'loaded-first'` the shell's own copies are the ones used.
 */
const HtmlWebpackPlugin = require('html-webpack-plugin');

/** Where the shared libraries' code lives. */
const SHARED_SOURCES = [
  /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@remix-run[\\/]router|@tanstack[\\/](react-query|query-core))[\\/]/,
  /libs[\\/]web[\\/](ui|data-access)[\\/]/,
];

class PreloadSharedPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PreloadSharedPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tapAsync('PreloadSharedPlugin', (data, done) => {
        const publicPath = compilation.outputOptions.publicPath === 'auto' ? '' : String(compilation.outputOptions.publicPath ?? '');
        const files = new Set();
        for (const chunk of compilation.chunks) {
          if (chunk.canBeInitial()) continue;
          // Only the copies the shell provides to the share scope (a second, identical chunk
          // serves as the fallback of a consumer and is not loaded when the provider is).
          const provided = [...chunk.groupsIterable].some((group) =>
            group.origins.some((origin) => origin.module?.constructor?.name === 'ProvideSharedModule'),
          );
          if (!provided) continue;
          const modules = compilation.chunkGraph.getChunkModules(chunk);
          const shared = modules.some((module) => SHARED_SOURCES.some((pattern) => pattern.test(module.nameForCondition?.() ?? '')));
          if (shared) for (const file of chunk.files) files.add(file);
        }
        const tags = [...files]
          .filter((file) => /\.(js|css)$/.test(file))
          .sort()
          .map((file) => ({
            tagName: 'link',
            voidTag: true,
            meta: { plugin: 'PreloadSharedPlugin' },
            attributes: { rel: 'preload', href: `${publicPath}${file}`, as: file.endsWith('.css') ? 'style' : 'script' },
          }));
        data.headTags.push(...tags);
        done(null, data);
      });
    });
  }
}

module.exports = { PreloadSharedPlugin };
