import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const OUT_DIR = 'dist/web';
// `npm run dev` rebuilds each bundle on its own: emptying the folder then would delete the other bundle's files.
const WATCH = process.argv.includes('--watch') || process.argv.includes('-w');

/** Brotli and gzip copies of every text asset, made once at build time so the server never compresses per request. */
function precompress(): Plugin {
  return {
    name: 'signpost-precompress',
    apply: 'build',
    closeBundle() {
      const dir = path.resolve(OUT_DIR, 'assets');
      if (!fs.existsSync(dir)) return;
      for (const name of fs.readdirSync(dir)) {
        if (!/\.(js|css|svg|json|txt|map)$/.test(name)) continue;
        const file = path.join(dir, name);
        const data = fs.readFileSync(file);
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * Licence notices that must travel with the code they cover: the CSS minifier drops every comment, so each bundled
 * stylesheet that holds a package's rules gets that package's own banner back, first in the file. `mark` is a text
 * only that package's rules contain. A banner changes only with its package, whose rules then change the file's hash.
 */
const BANNERS = [{ css: '@fortawesome/fontawesome-free/css/all.min.css', mark: '"Font Awesome 7 ' }].map(
  ({ css, mark }) => {
    const text = fs.readFileSync(path.resolve('node_modules', css), 'utf8');
    const banner = /^\/\*![\s\S]*?\*\//.exec(text)?.[0];
    if (!banner)
      throw new Error(`${css} no longer starts with its licence banner: keep its notice another way`);
    return { banner, mark };
  },
);

function keepLicenceBanners(): Plugin {
  return {
    name: 'signpost-licence-banners',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const asset of Object.values(bundle)) {
        if (asset.type !== 'asset' || !asset.fileName.endsWith('.css')) continue;
        const source = String(asset.source);
        const banners = BANNERS.filter(
          ({ banner, mark }) => source.includes(mark) && !source.includes(banner),
        );
        if (banners.length) asset.source = `${banners.map(({ banner }) => banner).join('\n')}\n${source}`;
      }
    },
  };
}

/**
 * The public site's browser build runs on Preact's React-compatible layer, a third of React's size; the server still
 * renders with React and the admin app stays on React (docs/decisions.md, "First-load JavaScript"). Vite has no alias
 * per environment, so this resolves React's entry points to Preact's in the public build only.
 */
const PREACT_FOR_REACT: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/compat/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/compat/jsx-dev-runtime',
};

function preactInPublicBrowser(): Plugin {
  return {
    name: 'signpost-preact-in-public-browser',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    resolveId(source, importer, options) {
      const target = PREACT_FOR_REACT[source];
      return target ? this.resolve(target, importer, { ...options, skipSelf: true }) : null;
    },
  };
}

export default defineConfig({
  plugins: [preactInPublicBrowser(), react(), keepLicenceBanners(), precompress()],
  publicDir: false,
  build: {
    outDir: OUT_DIR,
    emptyOutDir: !WATCH,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rollupOptions: { input: 'src/web/entry-client.tsx' },
  },
  // The admin app is a second, separate build into the same folder: sharing chunks with the public entry would
  // reshape the public site's JavaScript, so each keeps its own bundle and manifest (see docs/decisions.md).
  environments: {
    client: {
      build: {
        rollupOptions: {
          input: 'src/web/entry-client.tsx',
          onwarn(warning, warn) {
            // React Router looks `useOptimistic` up on React and does without it when it is missing, as in Preact.
            if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('useOptimistic')) return;
            warn(warning);
          },
        },
      },
    },
    admin: {
      consumer: 'client',
      build: {
        emptyOutDir: false,
        manifest: '.vite/admin-manifest.json',
        rollupOptions: { input: 'src/web/admin/entry-admin.tsx' },
      },
    },
  },
  builder: {
    // In order: the public build empties the folder first.
    async buildApp(builder) {
      await builder.build(builder.environments.client!);
      await builder.build(builder.environments.admin!);
    },
  },
});
