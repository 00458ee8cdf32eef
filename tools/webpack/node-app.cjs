/**
 * One webpack configuration for Grove's Node services (the API, the Mindbody sandbox): bundles
 * `apps/<name>/src/main.ts` with SWC (decorator metadata for NestJS) into
 * `dist/apps/<name>/main.js`. Workspace libraries (`@grove/*`) are bundled from source;
 * node_modules stay external and are required at run time.
 */
const path = require('node:path');
const nodeExternals = require('webpack-node-externals');
const { workspaceAliases, workspaceRoot } = require('../workspace-aliases.cjs');

/** @param {{ name: string, ignoreWarnings?: RegExp[] }} options */
function nodeAppConfig({ name, ignoreWarnings = [] }) {
  return {
    target: 'node',
    mode: 'production',
    context: workspaceRoot,
    entry: { main: path.join(workspaceRoot, 'apps', name, 'src/main.ts') },
    output: {
      path: path.join(workspaceRoot, 'dist/apps', name),
      filename: '[name].js',
      clean: true,
    },
    devtool: 'source-map',
    optimization: { minimize: false, nodeEnv: false },
    resolve: {
      extensions: ['.ts', '.js', '.json'],
      alias: Object.fromEntries(
        Object.entries(workspaceAliases).map(([alias, file]) => [`${alias}$`, file]),
      ),
    },
    externalsPresets: { node: true },
    externals: [nodeExternals({ modulesDir: path.join(workspaceRoot, 'node_modules') })],
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', decorators: true },
                transform: { legacyDecorator: true, decoratorMetadata: true },
                target: 'es2022',
                keepClassNames: true,
              },
              module: { type: 'es6' },
            },
          },
        },
      ],
    },
    ignoreWarnings,
  };
}

module.exports = { nodeAppConfig };
