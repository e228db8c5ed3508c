import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import pkg from './package.json' with { type: 'json' };

const DESKTOP_DIR = __dirname;
const WEB_DIR = resolve(DESKTOP_DIR, '../web');

/**
 * Workspace packages export TypeScript source, which Electron cannot load from node_modules, so they are
 * bundled into main and preload; everything else in `dependencies` stays external as electron-vite wants.
 */
const BUNDLED_WORKSPACE_DEPS = Object.keys(pkg.dependencies).filter((name) => name.startsWith('@campus/'));

/**
 * electron-vite switches the renderer to a relative base ('./') in production, which breaks deep routes:
 * index.html served for app://campus-talk/chat/abc would then look for /chat/assets/…. The app is served at
 * the root of its own origin, so absolute paths are right (and /theme-init.js in index.html needs them).
 */
function absoluteBase(): Plugin {
  return { name: 'campus-desktop:absolute-base', config: () => ({ base: '/' }) };
}

export default defineConfig({
  main: {
    build: {
      outDir: resolve(DESKTOP_DIR, 'out/main'),
      externalizeDeps: { exclude: BUNDLED_WORKSPACE_DEPS },
      rolldownOptions: {
        input: { index: resolve(DESKTOP_DIR, 'src/main/index.ts') },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(DESKTOP_DIR, 'out/preload'),
      externalizeDeps: { exclude: BUNDLED_WORKSPACE_DEPS },
      rolldownOptions: {
        input: { index: resolve(DESKTOP_DIR, 'src/preload/index.ts') },
        // A sandboxed preload is run as a CommonJS script with only `electron` to require; the explicit .cjs
        // keeps it CommonJS whatever "type" package.json declares.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: WEB_DIR,
    publicDir: resolve(WEB_DIR, 'public'),
    plugins: [react(), absoluteBase()],
    define: { 'import.meta.env.VITE_APP_VERSION': JSON.stringify(pkg.version) },
    build: {
      outDir: resolve(DESKTOP_DIR, 'out/renderer'),
      emptyOutDir: true,
      sourcemap: true,
      rolldownOptions: {
        input: { index: resolve(WEB_DIR, 'index.html') },
      },
    },
  },
});
