// One rspack 2 + Module Federation configuration for the three browser apps (shell host, storefront and
// admin remotes), so the rules that keep them compatible (the same shared singletons, loaded-first
// sharing, no dts broker, distinct names for React Refresh) live in one place.
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { rspack, type Compiler, type Configuration, type RspackPluginInstance } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { ReactRefreshRspackPlugin } from '@rspack/plugin-react-refresh';

export type AppName = 'shell' | 'storefront' | 'admin';

/** Dev-server ports; the shell reads the remotes' dev manifests from these. */
export const devPorts: Record<AppName, number> = { shell: 3000, storefront: 3001, admin: 3002 };

/** Where the gateway (and its dev proxy target) listens. */
const gatewayUrl = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

const require = createRequire(import.meta.url);

/** The installed version of a package (some packages do not export their package.json). */
function versionOf(pkg: string): string {
  let dir = path.dirname(require.resolve(pkg));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (json.name === pkg && json.version) return json.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the installed version of ${pkg}`);
    dir = parent;
  }
}

const reactVersion = versionOf('react');
const uiVersion = versionOf('@shop/ui');
// The toast module of @shop/ui, shared by its file (the apps import `toast` from `@shop/ui`, whose index
// re-exports it): its state is the shell's mounted Toaster and the sonner it loads with the first toast.
const toastModule = fileURLToPath(new URL('../src/Toast.tsx', import.meta.url));

// Every app must share exactly these, including sub-paths: a second React copy breaks hooks, a second
// router copy loses the shell's routing context, a second toast module (or sonner) loses toasts raised
// by a remote, which would not find the Toaster the shell mounted.
// The router is shared through `@shop/ui/router` (src/router.ts), never as react-router itself: a shared
// package is bundled whole, a shared facade only with the exports it names (react-router's
// "sideEffects": false lets the rest go). The apps import react-router only through it.
function sharedModules() {
  const react = { singleton: true, requiredVersion: `^${reactVersion}` };
  return {
    react,
    'react/jsx-runtime': react,
    'react/jsx-dev-runtime': react,
    'react-dom': react,
    'react-dom/client': react,
    '@shop/ui/router': { singleton: true, version: uiVersion, requiredVersion: `^${uiVersion}` },
    // A key that is a file path shares the module that resolves to that file, under the name shareKey.
    [toastModule]: {
      singleton: true,
      shareKey: '@shop/ui/toast',
      version: uiVersion,
      requiredVersion: `^${uiVersion}`,
    },
  };
}

// Precompressed copies: the gateway serves them as they are (gateway/src/frontends.ts, preCompressed).
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

// Source maps are never requested by browsers; images are already compressed.
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt)$/;
// Below this a compressed response saves less than its own headers cost.
const MIN_BYTES = 1024;

export class PrecompressPlugin implements RspackPluginInstance {
  apply(compiler: Compiler): void {
    compiler.hooks.afterEmit.tapPromise('PrecompressPlugin', async (compilation) => {
      const outDir = compilation.outputOptions.path ?? compiler.outputPath;
      const names = compilation
        .getAssets()
        .map((asset) => asset.name)
        .filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        names.map(async (name) => {
          const file = path.join(outDir, name);
          const raw = await readFile(file);
          if (raw.length < MIN_BYTES) return;
          const [br, gzipped] = await Promise.all([
            brotli(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gz(raw, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        }),
      );
    });
  }
}

export interface AppOptions {
  app: AppName;
  /** The app's folder (where rspack.config.ts lives). */
  dir: string;
  /** Modules a remote exposes, e.g. { './Home': './src/pages/Home.tsx' }. */
  exposes?: Record<string, string>;
  /** True under `rspack serve` (dev server, React Refresh), false under `rspack build`. */
  isDev: boolean;
}

export function createAppConfig({ app, dir, exposes, isDev }: AppOptions): Configuration {
  const isHost = app === 'shell';
  const uniqueName = `shop_${app}`;

  return {
    mode: isDev ? 'development' : 'production',
    context: dir,
    entry: { main: './src/index.ts' },
    // Production maps are written for error reports but not referenced from the served files.
    devtool: isDev ? 'cheap-module-source-map' : 'hidden-source-map',
    output: {
      path: path.join(dir, 'dist'),
      // The shell is served at / and deep links like /admin/orders must still find /main.js; remotes
      // are served under /remotes/<app>/ (or their own dev port) and find their chunks from the
      // manifest's location.
      publicPath: isHost ? '/' : 'auto',
      uniqueName,
      filename: isDev ? '[name].js' : 'static/js/[name].[contenthash:8].js',
      chunkFilename: isDev ? '[name].js' : 'static/js/[name].[contenthash:8].js',
      cssFilename: isDev ? '[name].css' : 'static/css/[name].[contenthash:8].css',
      cssChunkFilename: isDev ? '[name].css' : 'static/css/[name].[contenthash:8].css',
      assetModuleFilename: 'static/media/[name].[contenthash:8][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.jsx', '.js', '.json'],
      // Workspace libraries (@shop/contracts, @shop/ui) are consumed as TypeScript sources.
      conditionNames: ['source', 'browser', 'import', 'module', 'default'],
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    module: {
      rules: [
        {
          test: /\.[cm]?[jt]sx?$/,
          // Our own sources and the workspace packages (symlinked, resolved to their real paths).
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              target: 'es2022',
              transform: {
                react: { runtime: 'automatic', development: isDev, refresh: isDev },
              },
            },
          },
          type: 'javascript/auto',
        },
        {
          test: /\.css$/,
          type: 'css/auto',
          use: [
            {
              loader: 'postcss-loader',
              options: { postcssOptions: { plugins: [['@tailwindcss/postcss', {}]] } },
            },
          ],
        },
        { test: /\.(svg|png|jpe?g|webp|ico)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new ModuleFederationPlugin({
        name: uniqueName,
        ...(isHost
          ? {
              // Remote URLs depend on the page origin (gateway) or the dev ports: registered at run time
              // in src/remotes.ts, never baked in here.
              remotes: {},
            }
          : {
              filename: 'remoteEntry.js',
              exposes,
            }),
        manifest: { fileName: 'mf-manifest.json' },
        shared: sharedModules(),
        // 'version-first' would fetch every remote at start-up, so one remote down would blank the shell.
        shareStrategy: 'loaded-first',
        // Types of remote modules are declared by hand; the dts plugin downloads types over HTTP and
        // opens a broker on a fixed port.
        dts: false,
        dev: false,
        // The federation runtime ships once, in the shell; remotes use the shell's copy instead of
        // bundling their own into remoteEntry.js (about 90 KB each). Dev servers keep their own.
        // Built shells load the remotes' remoteEntry.js directly (src/remotes.ts), so the runtime's
        // manifest snapshot code and its Node loaders are left out: less script to run before the home
        // page's first render. Dev servers keep reading the manifests.
        ...(isDev
          ? {}
          : {
              experiments: {
                ...(isHost ? { provideExternalRuntime: true } : { externalRuntime: true }),
                optimization: { disableSnapshot: true, target: 'web' as const },
              },
            }),
      }),
      ...(isHost
        ? [
            new rspack.HtmlRspackPlugin({
              template: path.join(dir, 'index.html'),
              // Hashed asset names, one stable entry document.
              filename: 'index.html',
            }),
          ]
        : []),
      new rspack.DefinePlugin({
        'process.env.NODE_ENV': JSON.stringify(isDev ? 'development' : 'production'),
        __SHOP_DEV__: JSON.stringify(isDev),
        __SHOP_DEV_REMOTES__: JSON.stringify({
          storefront: `http://localhost:${devPorts.storefront}/mf-manifest.json`,
          admin: `http://localhost:${devPorts.admin}/mf-manifest.json`,
        }),
      }),
      ...(isDev ? [new ReactRefreshRspackPlugin({ library: uniqueName })] : [new PrecompressPlugin()]),
    ],
    optimization: { minimize: !isDev },
    performance: { hints: false },
    lazyCompilation: false,
    devServer: {
      port: devPorts[app],
      host: 'localhost',
      hot: true,
      historyApiFallback: isHost,
      // The shell at :3000 reads the remotes' manifests and chunks cross-origin.
      headers: { 'Access-Control-Allow-Origin': '*' },
      client: { overlay: { warnings: false } },
      proxy: isHost ? [{ context: ['/api'], target: gatewayUrl, changeOrigin: false }] : [],
    },
  };
}
