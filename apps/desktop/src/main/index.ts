import path from 'node:path';
import { app, ipcMain, session } from 'electron';
import { APP_USER_MODEL_ID } from './app-identity';
import { handleAppScheme, registerAppSchemePrivileges } from './app-scheme';
import { deepLinkRouteFromArgv, parseDeepLink, registerDeepLinkClient } from './deep-links';
import { createFileOriginsCache } from './file-origins';
import { registerIpcHandlers } from './ipc-handlers';
import { createIpcServices } from './ipc-services';
import { createMainWindowController } from './main-window';
import { hardenWebContents } from './navigation-guard';
import { installPermissionHandlers } from './permissions';
import { createSettingsStore } from './settings-store';

// The built layout is out/main/index.js beside out/preload and out/renderer (in app.asar when packaged).
const PRELOAD_PATH = path.join(__dirname, '../preload/index.cjs');
const RENDERER_DIR = path.join(__dirname, '../renderer');

// Both must happen before `ready`: Chromium fixes scheme privileges and the sandbox policy at start-up.
registerAppSchemePrivileges();
app.enableSandbox();
if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);

if (!app.requestSingleInstanceLock()) {
  // Another instance owns the profile (IndexedDB cannot be shared); it receives our argv via second-instance.
  app.quit();
} else {
  start();
}

function start(): void {
  const settings = createSettingsStore(app.getPath('userData'));
  // Where the server's downloads point (STORAGE=s3: the bucket), for the CSP and the frame guard. Asked for
  // now, so the answer is usually in before the first window; per server URL, in memory.
  const fileOrigins = createFileOriginsCache();
  const startupOrigins = fileOrigins.refreshWithin(settings.get().serverUrl);
  const windows = createMainWindowController({
    preloadPath: PRELOAD_PATH,
    appVersion: app.getVersion(),
    devTools: !app.isPackaged,
    serverUrl: () => settings.get().serverUrl,
  });
  // A link that arrives before the first window exists becomes the first window's route.
  let pendingRoute: string | null = deepLinkRouteFromArgv(process.argv);

  function openRoute(route: string | null): void {
    if (!route) return;
    if (app.isReady()) windows.showRoute(route);
    else pendingRoute = route;
  }

  registerDeepLinkClient(app);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openRoute(parseDeepLink(url));
  });
  app.on('second-instance', (_event, argv) => {
    const route = deepLinkRouteFromArgv(argv);
    if (route) openRoute(route);
    else if (app.isReady()) windows.open();
  });
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(
      contents,
      () => settings.get().serverUrl,
      () => fileOrigins.get(settings.get().serverUrl),
    ),
  );

  app.on('window-all-closed', () => {
    // macOS apps stay in the Dock without windows; activate brings one back.
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady()) windows.open();
  });

  app
    .whenReady()
    .then(async () => {
      handleAppScheme(
        RENDERER_DIR,
        () => settings.get().serverUrl,
        (serverUrl) => fileOrigins.get(serverUrl),
      );
      installPermissionHandlers(session.defaultSession);
      registerIpcHandlers(
        ipcMain,
        createIpcServices({ settings, windows, fileOrigins, downloadsDir: () => app.getPath('downloads') }),
      );
      // At most FILE_ORIGINS_WAIT_MS from start-up: a server that answers by then has its bucket in the first
      // window's CSP; a later answer reaches the next document served (app-scheme.ts).
      await startupOrigins;
      windows.open(pendingRoute ?? '/');
      pendingRoute = null;
    })
    .catch((error: unknown) => {
      console.error('Campus Talk failed to start', error);
      app.exit(1);
    });
}
