import type { FileOriginsCache } from './file-origins';
import type { IpcServices } from './ipc-handlers';
import type { MainWindowController } from './main-window';
import { openExternalSafely } from './external-links';
import { requestMediaAccess } from './media-access';
import { showNotification } from './notifications';
import { saveFileWithDialog } from './save-file';
import type { SettingsStore } from './settings-store';

export interface IpcServiceDeps {
  settings: SettingsStore;
  windows: MainWindowController;
  downloadsDir: () => string;
  /** Asked for the new server's file origins before its window is created (the window's CSP needs them). */
  fileOrigins?: Pick<FileOriginsCache, 'refreshWithin'>;
  /** Defers the window swap; the default lets the invoke() reply go out before its window closes. */
  defer?: (task: () => void) => void;
}

/** The real work behind each IPC channel, once ipc-handlers has checked the sender and the payload. */
export function createIpcServices(deps: IpcServiceDeps): IpcServices {
  const { settings, windows } = deps;
  const defer = deps.defer ?? ((task) => setImmediate(task));
  return {
    async setServerUrl(url) {
      const { serverUrl } = await settings.setServerUrl(url);
      // Bounded: a slow or unreachable server delays the switch a moment, never blocks it.
      await deps.fileOrigins?.refreshWithin(serverUrl);
      // The preload read the old URL from argv, which a reload would keep: only a new renderer sees the change.
      defer(() => windows.recreate());
    },
    async notify(notification) {
      showNotification(
        {
          isFocused: () => windows.current()?.isFocused() ?? false,
          open: (route) => {
            if (route) windows.showRoute(route);
            else windows.open();
          },
        },
        notification,
      );
    },
    async openExternal(url) {
      await openExternalSafely(url);
    },
    saveFile: (request) => saveFileWithDialog(windows.current(), request, deps.downloadsDir()),
    requestMediaAccess: (kind) => requestMediaAccess(kind),
  };
}
