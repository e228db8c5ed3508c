import { APP_VERSION_ARG, SERVER_URL_ARG } from '@campus/protocol';
import type { BrowserWindowConstructorOptions } from 'electron';

export interface WindowOptionsInput {
  preloadPath: string;
  serverUrl: string;
  appVersion: string;
  darkBackground: boolean;
  /** Off in packaged builds: DevTools would let anyone at the keyboard run code with the page's reach. */
  devTools: boolean;
}

/** The web app's --color-bg tokens, so the window never flashes white before the first paint. */
const BACKGROUND = { light: '#f6f7fb', dark: '#0f1115' } as const;

/**
 * The main window follows Electron's security checklist: the renderer has no Node, runs in the OS sandbox,
 * sees its preload only through contextBridge, keeps the same-origin policy, and cannot open <webview>s.
 * The sandboxed preload cannot read settings itself, so the server URL and version come in on argv.
 */
export function createWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 380,
    minHeight: 560,
    show: false,
    title: 'Campus Talk',
    autoHideMenuBar: true,
    backgroundColor: input.darkBackground ? BACKGROUND.dark : BACKGROUND.light,
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
      devTools: input.devTools,
      additionalArguments: [`${SERVER_URL_ARG}${input.serverUrl}`, `${APP_VERSION_ARG}${input.appVersion}`],
    },
  };
}
