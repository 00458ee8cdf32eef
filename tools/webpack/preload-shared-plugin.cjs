/**
 * Host only: adds `<link rel="preload" as="script">` (and `as="style"`) tags to the shell's
 * index.html for the chunks holding the libraries the shell shares (React, the router, the query
 * client, Grove's web libraries). Module Federation only asks for them after main.js has run;
 * preloaded, they download alongside it: one round trip less before the first page renders.
 * With `shareStrategy: 'loaded-first'` the shell's own copies are the ones used.
 */
const fs = require('node:fs');
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { sharedModules } = require('./shared-modules.cjs');

const root = path.resolve(__dirname, '../..');

/**
 * Shared packages NOT preloaded: react-hook-form is shared (one copy for every form), but only
 * the pages with a form use it; preloading it would make every page, the home page first of all,
 * download it up front.
 */
const NOT_PRELOADED = new Set(['react-hook-form']);

/** `react-dom/client` → `react-dom`, `@tanstack/react-query` stays whole. */
const packageOf = (request) =>
  request
    .split('/')
    .slice(0, request.startsWith('@') ? 2 : 1)
    .join('/');

/** Escapes a path for a RegExp that accepts either path separator. */
const pathPattern = (value) =>
  value
    .split('/')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\\\/]');

/** Grove's own libraries (`@grove/...`) live where tsconfig.base.json's paths point. */
const workspacePaths = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'))
  .compilerOptions.paths;

/**
 * Where the shared libraries' code lives, derived from shared-modules.cjs: each npm package and
 * the packages it depends on directly (the code its shared chunk bundles, e.g. scheduler for
 * react-dom), and each workspace library's folder.
 */
const SHARED_SOURCES = [...new Set(Object.keys(sharedModules()).map(packageOf))]
  .filter((name) => !NOT_PRELOADED.has(name))
  .flatMap((name) => {
    if (workspacePaths[name]) {
      const folder = path.posix
        .dirname(path.posix.normalize(workspacePaths[name][0]))
        .replace(/\/src$/, '');
      return [new RegExp(`${pathPattern(folder)}[\\\\/]`)];
    }
    const manifest = JSON.parse(
      fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'),
    );
    return [name, ...Object.keys(manifest.dependencies ?? {})].map(
      (pkg) => new RegExp(`node_modules[\\\\/]${pathPattern(pkg)}[\\\\/]`),
    );
  });

class PreloadSharedPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PreloadSharedPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tapAsync(
        'PreloadSharedPlugin',
        (data, done) => {
          const publicPath =
            compilation.outputOptions.publicPath === 'auto'
              ? ''
              : String(compilation.outputOptions.publicPath ?? '');
          const files = new Set();
          for (const chunk of compilation.chunks) {
            if (chunk.canBeInitial()) continue;
            // Only the copies the shell provides to the share scope (a second, identical chunk
            // serves as the fallback of a consumer and is not loaded when the provider is).
            const provided = [...chunk.groupsIterable].some((group) =>
              group.origins.some(
                (origin) => origin.module?.constructor?.name === 'ProvideSharedModule',
              ),
            );
            if (!provided) continue;
            const modules = compilation.chunkGraph.getChunkModules(chunk);
            const shared = modules.some((module) =>
              SHARED_SOURCES.some((pattern) => pattern.test(module.nameForCondition?.() ?? '')),
            );
            if (shared) for (const file of chunk.files) files.add(file);
          }
          const tags = [...files]
            .filter((file) => /\.(js|css)$/.test(file))
            .sort()
            .map((file) => ({
              tagName: 'link',
              voidTag: true,
              meta: { plugin: 'PreloadSharedPlugin' },
              attributes: {
                rel: 'preload',
                href: `${publicPath}${file}`,
                as: file.endsWith('.css') ? 'style' : 'script',
              },
            }));
          data.headTags.push(...tags);
          done(null, data);
        },
      );
    });
  }
}

module.exports = { PreloadSharedPlugin };
