import {
  APP_VERSION_ARG,
  IPC,
  SERVER_URL_ARG,
  appRouteSchema,
  type DesktopBridge,
  type MediaKind,
  type PlatformNotification,
  type SaveFileRequest,
} from '@campus/protocol';
import type { IpcRenderer, IpcRendererEvent } from 'electron';

/** Reads `--name=value` as the main process passed it in webPreferences.additionalArguments. */
export function argValue(argv: readonly string[], prefix: string): string {
  const arg = argv.find((candidate) => candidate.startsWith(prefix));
  return arg ? arg.slice(prefix.length) : '';
}

/**
 * The DesktopBridge the page sees. Each method sends one fixed channel with plain data: the page never gets
 * ipcRenderer, an IPC event, or a way to name a channel, and the main process validates every payload again.
 */
export function createDesktopBridge(
  ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>,
  argv: readonly string[],
): DesktopBridge {
  return {
    serverUrl: argValue(argv, SERVER_URL_ARG),
    appVersion: argValue(argv, APP_VERSION_ARG),
    async setServerUrl(url: string) {
      await ipc.invoke(IPC.setServerUrl, url);
    },
    async notify(notification: PlatformNotification) {
      await ipc.invoke(IPC.notify, notification);
    },
    onNavigate(listener: (route: string) => void) {
      const onMessage = (_event: IpcRendererEvent, route: unknown) => {
        const parsed = appRouteSchema.safeParse(route);
        if (parsed.success) listener(parsed.data);
      };
      ipc.on(IPC.navigate, onMessage);
      return () => {
        ipc.removeListener(IPC.navigate, onMessage);
      };
    },
    async openExternal(url: string) {
      await ipc.invoke(IPC.openExternal, url);
    },
    async saveFile(request: SaveFileRequest) {
      return (await ipc.invoke(IPC.saveFile, { name: request.name, data: request.data })) === true;
    },
    async requestMediaAccess(kind: MediaKind) {
      return (await ipc.invoke(IPC.mediaAccess, kind)) === true;
    },
  };
}
