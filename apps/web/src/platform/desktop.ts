import type { DesktopBridge, MediaKind, Platform } from '@campus/protocol';
import { pickFilesWithInput } from './pick-files';

/** The desktop app's Platform: everything goes through the context-isolated preload bridge. */
export function createDesktopPlatform(bridge: DesktopBridge): Platform {
  return {
    serverUrl: bridge.serverUrl.replace(/\/+$/, ''),
    appVersion: bridge.appVersion,
    setServerUrl: (url: string) => bridge.setServerUrl(url),
    notify: (notification) => bridge.notify(notification),
    onNavigate: (listener) => bridge.onNavigate(listener),
    openExternal: (url: string) => bridge.openExternal(url),
    // Chromium's own file chooser works inside Electron too.
    pickFiles: (options) => pickFilesWithInput(options),
    async saveFile(name: string, data: Blob) {
      return bridge.saveFile({ name, data: new Uint8Array(await data.arrayBuffer()) });
    },
    requestMediaPermission: (kind: MediaKind) => bridge.requestMediaAccess(kind),
  };
}
