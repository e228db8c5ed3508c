import {
  IPC,
  externalUrlSchema,
  mediaKindSchema,
  platformNotificationSchema,
  saveFileRequestSchema,
  serverUrlSchema,
  type MediaKind,
  type PlatformNotification,
  type SaveFileRequest,
} from '@campus/protocol';
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { isAppUrl } from './app-origin';

/** What the renderer may ask of the main process; each is implemented in index.ts with real Electron APIs. */
export interface IpcServices {
  setServerUrl(url: string): Promise<void>;
  notify(notification: PlatformNotification): Promise<void>;
  openExternal(url: string): Promise<void>;
  saveFile(request: SaveFileRequest): Promise<boolean>;
  requestMediaAccess(kind: MediaKind): Promise<boolean>;
}

/** IPC.navigate flows the other way (main → renderer) and has no handler. */
export type InvokeChannel = Exclude<keyof typeof IPC, 'navigate'>;

/** The part of a zod schema used here; the desktop app does not depend on zod itself. */
interface PayloadSchema<T> {
  safeParse(
    input: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}

interface IpcRoute {
  handle(payload: unknown): Promise<unknown>;
}

/** Thrown back to the renderer (its invoke() rejects); the message is safe to show. */
export class IpcRequestError extends Error {
  override name = 'IpcRequestError';
}

function route<T>(
  channel: string,
  schema: PayloadSchema<T>,
  run: (payload: T) => Promise<unknown>,
): IpcRoute {
  return {
    async handle(payload) {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        throw new IpcRequestError(parsed.error.issues[0]?.message ?? `Invalid payload for ${channel}.`);
      }
      return run(parsed.data);
    },
  };
}

/** One route per invoke channel; the mapped type makes a missing channel a compile error. */
export function createIpcRoutes(services: IpcServices): Record<InvokeChannel, IpcRoute> {
  return {
    setServerUrl: route(IPC.setServerUrl, serverUrlSchema, (url) => services.setServerUrl(url)),
    notify: route(IPC.notify, platformNotificationSchema, (n) => services.notify(n)),
    openExternal: route(IPC.openExternal, externalUrlSchema, (url) => services.openExternal(url)),
    saveFile: route(IPC.saveFile, saveFileRequestSchema, (request) => services.saveFile(request)),
    mediaAccess: route(IPC.mediaAccess, mediaKindSchema, (kind) => services.requestMediaAccess(kind)),
  };
}

/**
 * Only the app's own page may call in. A frame that navigated elsewhere (or any other origin in a subframe)
 * would otherwise inherit the bridge's reach into the main process.
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): boolean {
  return isAppUrl(event.senderFrame?.url);
}

export function registerIpcHandlers(ipcMain: Pick<IpcMain, 'handle'>, services: IpcServices): void {
  const routes = createIpcRoutes(services);
  for (const key of Object.keys(routes) as InvokeChannel[]) {
    const channel = IPC[key];
    ipcMain.handle(channel, async (event, payload: unknown) => {
      if (!isTrustedSender(event)) throw new IpcRequestError(`Refused ${channel} from an untrusted frame.`);
      return routes[key].handle(payload);
    });
  }
}
