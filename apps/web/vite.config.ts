import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import pkg from './package.json' with { type: 'json' };

/** The server in development (pnpm dev starts it on :8787); the UI reaches it through this proxy. */
const SERVER = 'http://127.0.0.1:8787';

/**
 * Writes dist/asset-manifest.json, every built file under assets/ (source maps aside). Screens load as lazy
 * chunks that index.html does not name, so the service worker (public/sw.js) reads this list to keep all of
 * them: a reload offline must open any screen, not only those visited while online.
 */
function assetManifest(): Plugin {
  return {
    name: 'campus:asset-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      const assets = Object.keys(bundle)
        .filter((file) => file.startsWith('assets/') && !file.endsWith('.map'))
        .map((file) => `/${file}`)
        .sort();
      this.emitFile({ type: 'asset', fileName: 'asset-manifest.json', source: JSON.stringify({ assets }) });
    },
  };
}

export default defineConfig({
  // Absolute asset paths: deep routes such as /chat/abc must still load /assets/… (a relative base breaks them).
  base: '/',
  plugins: [react(), assetManifest()],
  resolve: {
    alias: {
      // simple-peer's streams (streamx, through events-universal) require('events') from a package that does
      // not depend on it, so the bundler took it for Node's built-in and left it empty: "Class extends value
      // undefined" when a call or a random room loaded the chunk. Every `events` is the browser package.
      events: fileURLToPath(new URL('./node_modules/events/events.js', import.meta.url)),
    },
  },
  define: { 'import.meta.env.VITE_APP_VERSION': JSON.stringify(pkg.version) },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: SERVER, changeOrigin: true },
      '/ws': { target: SERVER, changeOrigin: true, ws: true },
      '/notes': { target: SERVER, changeOrigin: true, ws: true },
      '/files': { target: SERVER, changeOrigin: true },
      '/moderation': { target: SERVER, changeOrigin: true },
      '/dev/': { target: SERVER, changeOrigin: true },
      '/healthz': { target: SERVER, changeOrigin: true },
      '/readyz': { target: SERVER, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
  },
});
