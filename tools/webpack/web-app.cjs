/**
 * One webpack configuration for every web app of Grove: the shell (Module Federation host) and
 * each remote. Keeping it here means the remotes cannot drift apart in how they build or what
 * they share (docs/architecture.md#front-end).
 */
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { sharedModules } = require('./shared-modules.cjs');
const { PrecompressPlugin } = require('./precompress-plugin.cjs');
const { PreloadSharedPlugin } = require('./preload-shared-plugin.cjs');
const { workspaceAliases } = require('../workspace-aliases.cjs');

const workspaceRoot = path.resolve(__dirname, '../..');

/**
 * The loaders every Grove web bundle uses: TypeScript/TSX through swc, @grove/contracts without
 * import side effects, and CSS (production: extracted, minified .css files; development:
 * style-loader; `extractCss` forces real files).
 * @param {boolean} production
 * @param {boolean} [extractCss]
 */
function sourceRules(production, extractCss = production) {
  return [
    {
      test: /\.[jt]sx?$/,
      exclude: /node_modules/,
      use: {
        loader: 'swc-loader',
        options: {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic', development: !production } },
            target: 'es2020',
          },
        },
      },
    },
    // @grove/contracts has no import side effects: lets webpack drop whatever a bundle does
    // not use (e.g. libphonenumber-js's metadata on pages without a phone field).
    { test: /libs[\\/]shared[\\/]contracts[\\/]src[\\/].+\.ts$/, sideEffects: false },
    {
      test: /\.css$/,
      // Production: real, minified .css files loaded with the chunk that imports them (in
      // parallel, not parsed out of JavaScript); development: style-loader.
      use: extractCss
        ? [MiniCssExtractPlugin.loader, 'css-loader', require.resolve('./css-minify-loader.cjs')]
        : ['style-loader', 'css-loader'],
    },
  ];
}

/** Files webpack emits under their hashed names (images and videos). */
const ASSET = /\.(svg|png|jpe?g|webp|gif|mp4|webm)$/;

/**
 * Rules for images and videos: each file is emitted as it is, except a `renditions` entry (a file
 * name → `{ width, format, quality }`), which is re-encoded for the size it is shown at
 * (image-rendition-loader.cjs) and emitted as `assets/<name>.<hash>.<format>`.
 * @param {Record<string, { width: number, format: 'avif' | 'webp', quality: number }>} renditions
 * @param {boolean} emit false in the prerender build: the remote's own build emits the files
 */
function assetRules(renditions, emit = true) {
  const fileTest = (file) => new RegExp(`[\\\\/]${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return [
    ...Object.entries(renditions).map(([file, options]) => ({
      test: fileTest(file),
      type: 'asset/resource',
      use: [{ loader: require.resolve('./image-rendition-loader.cjs'), options }],
      generator: { filename: `assets/[name].[contenthash:16].${options.format}`, emit },
    })),
    {
      test: ASSET,
      exclude: Object.keys(renditions).map(fileTest),
      type: 'asset/resource',
      generator: { emit },
    },
  ];
}

/**
 * @param {object} options
 * @param {string} options.name project name (also the federation name), e.g. 'dashboard'
 * @param {Record<string,string>} [options.exposes] remote only: exposed module → source file
 * @param {boolean} [options.host] true for the shell
 * @param {string} [options.title] HTML title (host only)
 * @param {Record<string, { width: number, format: 'avif' | 'webp', quality: number }>} [options.renditions]
 *   images re-encoded for the size they are shown at (assetRules)
 */
function webAppConfig({ name, exposes, host = false, title = 'Grove', renditions = {} }) {
  const projectRoot = path.join(workspaceRoot, 'apps', name);
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    return {
      name,
      mode: production ? 'production' : 'development',
      // No eval-based source maps: the API's CSP (script-src 'self') forbids eval in development too.
      // Production ships no source maps to browsers unless GROVE_SOURCE_MAPS=true.
      devtool: production
        ? process.env.GROVE_SOURCE_MAPS === 'true'
          ? 'source-map'
          : false
        : 'cheap-module-source-map',
      context: projectRoot,
      // A remote's only entry is its remoteEntry.js container, added by the federation plugin.
      entry: host ? { main: './src/main.ts' } : {},
      output: {
        path: path.join(workspaceRoot, 'dist/apps', name),
        publicPath: host ? '/' : 'auto',
        filename: production ? '[name].[contenthash:16].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:16].js' : '[name].js',
        // Images and videos: content-hashed names, so the API caches them for a year.
        assetModuleFilename: 'assets/[name].[contenthash:16][ext]',
        uniqueName: name,
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.js', '.mjs'],
        alias: {
          ...workspaceAliases,
          // The runtime the shell provides to remotes must be the very copy its own federation code
          // uses (the ES module build), not a second, CommonJS one.
          ...(host
            ? {
                '@module-federation/runtime-tools/runtime-core$': require
                  .resolve('@module-federation/runtime-core')
                  .replace(/\.cjs$/, '.js'),
              }
            : {}),
        },
      },
      module: {
        // `new CrossOriginWorker(new URL(…, import.meta.url))` bundles a worker chunk like `new
        // Worker(…)` does; it also starts when the remote is served from another origin (a CDN).
        parser: { javascript: { worker: ['CrossOriginWorker from ./cross-origin-worker', '...'] } },
        rules: [...sourceRules(production), ...assetRules(renditions)],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          dts: false,
          manifest: true,
          // One copy of the federation runtime per page: the shell provides it, remotes use it
          // (each remoteEntry.js was ~28 KB compressed of runtime the shell had already loaded).
          // A remote therefore needs a host built with provideExternalRuntime, i.e. Grove's shell.
          experiments: host ? { provideExternalRuntime: true } : { externalRuntime: true },
          ...(host
            ? { remotes: {}, shareStrategy: 'loaded-first' }
            : { filename: 'remoteEntry.js', exposes }),
          shared: sharedModules(),
        }),
        ...(host
          ? [
              new HtmlWebpackPlugin({
                template: path.join(projectRoot, 'src/index.html'),
                title,
                favicon: path.join(projectRoot, 'src/favicon.svg'),
              }),
              ...(production ? [new PreloadSharedPlugin()] : []),
            ]
          : []),
        ...(production
          ? [
              new MiniCssExtractPlugin({
                filename: '[name].[contenthash:16].css',
                chunkFilename: '[name].[contenthash:16].css',
              }),
              new PrecompressPlugin(),
            ]
          : []),
      ],
      performance: { hints: false },
      devServer: {
        port: 4200,
        historyApiFallback: true,
        proxy: [
          { context: ['/api', '/remotes', '/remotes.json'], target: 'http://127.0.0.1:3000' },
        ],
      },
    };
  };
}

/**
 * A page's inline assets: one script and one stylesheet with fixed names in
 * `dist/apps/<name>/<folder>/` (`page.js`, `page.css`), outside Module Federation, for a page the
 * API renders itself and inlines them into (the referral join page:
 * apps/api/src/app/referral/referrals/join-page). Built after the remote (`dependencies`), whose
 * `output.clean` would otherwise delete them. No content hash: they are never fetched by URL.
 * @param {object} options
 * @param {string} options.name the project that owns the page, e.g. 'referral'
 * @param {string} options.folder output folder inside the project's dist, e.g. 'join-page'
 * @param {string[]} options.entry source files (script and stylesheets), relative to the project
 */
function pageAssetsConfig({ name, folder, entry }) {
  const projectRoot = path.join(workspaceRoot, 'apps', name);
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    return {
      name: `${name}-${folder}`,
      dependencies: [name],
      mode: production ? 'production' : 'development',
      devtool: false,
      context: projectRoot,
      entry: { page: entry },
      output: {
        // The remote's own output folder, so `--output-path` (npm run remote:deploy) moves both.
        path: path.join(workspaceRoot, 'dist/apps', name),
        filename: `${folder}/[name].js`,
        // One inline script: nothing may be split off into a chunk fetched later.
        chunkFormat: false,
        chunkLoading: false,
        iife: true,
      },
      optimization: { splitChunks: false, runtimeChunk: false },
      resolve: { extensions: ['.ts', '.js'], alias: { ...workspaceAliases } },
      module: { rules: sourceRules(production, true) },
      plugins: [new MiniCssExtractPlugin({ filename: `${folder}/[name].css` })],
      performance: { hints: false },
    };
  };
}

/**
 * A remote's prerendered pages (docs/architecture.md#prerendered-pages): a Node bundle of `entry`
 * (which exports `renderPages()`) is built into `<output>/prerendered/` after the remote
 * (`dependencies`, like pageAssetsConfig) and run by PrerenderPlugin, which writes each page's HTML,
 * its Open Graph image and `manifest.json` there. The pages' CSS (what the rendered components
 * import, then `styles`) is one stylesheet, `prerendered/page.css`, which the API inlines. Images
 * and videos keep the remote's hashed names but are not emitted twice; their URLs start with
 * PRERENDERED_ASSET_BASE (@grove/contracts), which the API replaces with the remote's folder.
 * @param {object} options
 * @param {string} options.name the remote, e.g. 'marketing'
 * @param {string} options.entry the render module, relative to the project
 * @param {string[]} [options.styles] stylesheets besides the components' own (the shell's top bar)
 * @param {Record<string, { width: number, format: 'avif' | 'webp', quality: number }>} [options.renditions]
 *   the same as the remote's (webAppConfig), so both name the same files
 */
function prerenderConfig({ name, entry, styles = [], renditions = {} }) {
  const projectRoot = path.join(workspaceRoot, 'apps', name);
  const { PrerenderPlugin } = require('./prerender-plugin.cjs');
  const webpack = require('webpack');
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    return {
      name: `${name}-prerender`,
      dependencies: [name],
      target: 'node',
      mode: production ? 'production' : 'development',
      devtool: false,
      context: projectRoot,
      entry: { page: [...styles, entry] },
      output: {
        path: path.join(workspaceRoot, 'dist/apps', name),
        filename: 'prerendered/render.cjs',
        library: { type: 'commonjs2' },
        publicPath: '/__grove_remote_base__/',
        assetModuleFilename: 'assets/[name].[contenthash:16][ext]',
      },
      optimization: { minimize: false, splitChunks: false, runtimeChunk: false },
      resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'], alias: { ...workspaceAliases } },
      module: {
        rules: [...sourceRules(production, true), ...assetRules(renditions, false)],
      },
      plugins: [
        new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
        // The captcha (altcha, its workers and stylesheet) loads with a form, after the page: never
        // rendered here, and its browser-only workers do not resolve for Node.
        new webpack.IgnorePlugin({ resourceRegExp: /^altcha(\/|$)/ }),
        new MiniCssExtractPlugin({ filename: 'prerendered/[name].css' }),
        new PrerenderPlugin({ bundle: 'render.cjs', stylesheet: 'page.css' }),
      ],
      performance: { hints: false },
    };
  };
}

module.exports = { webAppConfig, pageAssetsConfig, prerenderConfig };
