/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Set by vite.config.ts from package.json; absent under the unit tests. */
  readonly VITE_APP_VERSION?: string;
}
