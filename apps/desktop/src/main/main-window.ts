import { IPC } from '@campus/protocol';
import { BrowserWindow, nativeTheme } from 'electron';
import { appUrlForRoute, routeOfAppUrl } from './app-origin';
import { createWindowOptions } from './window-options';

export interface MainWindowConfig {
  preloadPath: string;
  appVersion: string;
  devTools: boolean;
  /** Read at each window creation: the preload learns it from argv, fixed for the renderer's lifetime. */
  serverUrl(): string;
}

export interface MainWindowController {
  current(): BrowserWindow | null;
  /** Shows the window, creating it at `route` if there is none. */
  open(route?: string): BrowserWindow;
  /** Brings the app forward at `route`: over IPC when the page is up, by loading the route otherwise. */
  showRoute(route: string): void;
  /** Replaces the window by a new one at the same route, bounds and state (new renderer, new argv). */
  recreate(): void;
}

/** A load superseded by a newer one (a deep link during start-up) rejects with ERR_ABORTED: not a fault. */
function reportLoadFailure(window: BrowserWindow, error: unknown): void {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 'ERR_ABORTED' || window.isDestroyed()) return;
  console.error('Could not load the app', error);
}

function bringForward(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

export function createMainWindowController(config: MainWindowConfig): MainWindowController {
  let current: BrowserWindow | null = null;

  function create(route: string, previous?: BrowserWindow): BrowserWindow {
    const window = new BrowserWindow({
      ...createWindowOptions({
        preloadPath: config.preloadPath,
        serverUrl: config.serverUrl(),
        appVersion: config.appVersion,
        darkBackground: nativeTheme.shouldUseDarkColors,
        devTools: config.devTools,
      }),
      ...(previous ? previous.getNormalBounds() : {}),
    });
    if (previous?.isMaximized()) window.maximize();
    window.once('ready-to-show', () => window.show());
    window.on('closed', () => {
      if (current === window) current = null;
    });
    current = window;
    window.loadURL(appUrlForRoute(route)).catch((error: unknown) => reportLoadFailure(window, error));
    return window;
  }

  function open(route = '/'): BrowserWindow {
    if (!current) return create(route);
    bringForward(current);
    return current;
  }

  return {
    current: () => current,
    open,
    showRoute(route) {
      if (!current) {
        create(route);
        return;
      }
      bringForward(current);
      // While the page is still loading the UI may not be listening yet, so an IPC message could be lost;
      // loading the route itself cannot be.
      if (current.webContents.isLoading()) {
        const window = current;
        window.loadURL(appUrlForRoute(route)).catch((error: unknown) => reportLoadFailure(window, error));
      } else {
        current.webContents.send(IPC.navigate, route);
      }
    },
    recreate() {
      const previous = current;
      if (!previous) {
        create('/');
        return;
      }
      const route = routeOfAppUrl(previous.webContents.getURL()) ?? '/';
      // Open the new window first, so closing the old one never leaves the app without windows.
      create(route, previous);
      previous.close();
    },
  };
}
