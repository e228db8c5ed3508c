import { z } from 'zod';

/**
 * What the UI may ask of the machine it runs on. The browser and the desktop app each implement it;
 * feature code only ever talks to this interface.
 */
export interface Platform {
  /** API and WebSocket base URL; '' means the page's own origin. */
  readonly serverUrl: string;
  /** Present only where the user can point the app at another server (the desktop app). */
  readonly setServerUrl?: (url: string) => Promise<void>;
  readonly appVersion: string;
  /** Shows a system notification; clicking it brings the app forward and opens `route`. */
  notify(notification: PlatformNotification): Promise<void>;
  /** Routes asked for from outside the page: notification clicks, deep links. Returns an unsubscribe. */
  onNavigate(listener: (route: string) => void): () => void;
  openExternal(url: string): Promise<void>;
  pickFiles(options: PickFilesOptions): Promise<File[]>;
  saveFile(name: string, data: Blob): Promise<boolean>;
  /** Asks the OS (where it asks) for camera or microphone access. */
  requestMediaPermission(kind: MediaKind): Promise<boolean>;
}

export const mediaKindSchema = z.enum(['camera', 'microphone']);
export type MediaKind = z.infer<typeof mediaKindSchema>;

export interface PickFilesOptions {
  /** MIME types or extensions as an <input accept> takes them. */
  accept: string[];
  multiple?: boolean;
}

/** In-app routes only: a path that starts with one slash. */
export const appRouteSchema = z
  .string()
  .max(2048)
  .regex(/^\/(?!\/)[^\s]*$/, { error: 'Route must be an in-app path.' });

export const platformNotificationSchema = z.object({
  title: z.string().min(1).max(200),
  body: z.string().max(1000),
  route: appRouteSchema.optional(),
});
export type PlatformNotification = z.infer<typeof platformNotificationSchema>;

export const serverUrlSchema = z
  .string()
  .trim()
  .pipe(z.url({ protocol: /^https?$/, error: 'Enter an http:// or https:// address.' }))
  .transform((url) => url.replace(/\/+$/, ''));

export const externalUrlSchema = z.url({ protocol: /^(https?|mailto)$/ });

export const saveFileRequestSchema = z.object({
  name: z.string().min(1).max(255),
  data: z.instanceof(Uint8Array),
});
export type SaveFileRequest = z.infer<typeof saveFileRequestSchema>;

/** IPC channel names between the desktop preload and main process. */
export const IPC = {
  setServerUrl: 'platform:set-server-url',
  notify: 'platform:notify',
  openExternal: 'platform:open-external',
  saveFile: 'platform:save-file',
  mediaAccess: 'platform:media-access',
  navigate: 'platform:navigate',
} as const;

/** The argument the desktop main process passes to the preload with the configured server URL. */
export const SERVER_URL_ARG = '--campus-server-url=';
export const APP_VERSION_ARG = '--campus-app-version=';

/** What the desktop preload exposes on `window.campusDesktop` (context-isolated, no Node inside). */
export interface DesktopBridge {
  readonly serverUrl: string;
  readonly appVersion: string;
  setServerUrl(url: string): Promise<void>;
  notify(notification: PlatformNotification): Promise<void>;
  onNavigate(listener: (route: string) => void): () => void;
  openExternal(url: string): Promise<void>;
  saveFile(request: SaveFileRequest): Promise<boolean>;
  requestMediaAccess(kind: MediaKind): Promise<boolean>;
}

export const DESKTOP_BRIDGE_KEY = 'campusDesktop';
/** The renderer's origin inside the desktop app (a privileged custom scheme, not file://). */
export const DESKTOP_SCHEME = 'app';
export const DESKTOP_HOST = 'campus-talk';
export const DESKTOP_ORIGIN = `${DESKTOP_SCHEME}://${DESKTOP_HOST}`;
/** OS-level deep links: campustalk://open?action=open_confession&confessionId=… */
export const DEEP_LINK_SCHEME = 'campustalk';
