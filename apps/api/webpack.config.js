/**
 * Bundles the NestJS API into dist/apps/api/main.js. Workspace libraries (`@grove/*`) are bundled
 * from source; everything in node_modules stays external and is required at run time.
 */
const path = require('node:path');
const nodeExternals = require('webpack-node-externals');

const root = path.resolve(__dirname, '../..');
const tsconfig = require(path.join(root, 'tsconfig.base.json'));

/** `@grove/x` → absolute source path, from tsconfig.base.json's `paths`. */
const alias = Object.fromEntries(
  Object.entries(tsconfig.compilerOptions.paths).map(([name, [target]]) => [`${name}$`, path.join(root, target)]),
);

module.exports = {
  target: 'node',
  mode: 'production',
  context: root,
  entry: { main: path.join(__dirname, 'src/main.ts') },
  output: { path: path.join(root, 'dist/apps/api'), filename: '[name].js', clean: true },
  devtool: 'source-map',
  optimization: { minimize: false, nodeEnv: false },
  resolve: { extensions: ['.ts', '.js', '.json'], alias },
  externalsPresets: { node: true },
  externals: [nodeExternals({ modulesDir: path.join(root, 'node_modules') })],
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
  // Optional Nest peers that are never used; keep webpack quiet about them.
  ignoreWarnings: [/Critical dependency/, /Can't resolve '(@nestjs\/(microservices|websockets)|class-transformer\/storage)/],
};
