import {
  appRouteSchema,
  externalUrlSchema,
  type MediaKind,
  type PickFilesOptions,
  type Platform,
  type PlatformNotification,
} from '@campus/protocol';
import { pickFilesWithInput } from './pick-files';

type RouteListener = (route: string) => void;

/** A service worker asks the page to open a route with `postMessage({ type: 'navigate', route })`. */
function routeFromWorkerMessage(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, route } = data as { type?: unknown; route?: unknown };
  if (type !== 'navigate') return null;
  const parsed = appRouteSchema.safeParse(route);
  return parsed.success ? parsed.data : null;
}

async function notificationPermission(): Promise<boolean> {
  if (typeof Notification === 'undefined') return false;
  if (Notification.permission === 'granted') return true;
  if (Notification.permission === 'denied') return false;
  return (await Notification.requestPermission()) === 'granted';
}

export function createBrowserPlatform(appVersion: string): Platform {
  const listeners = new Set<RouteListener>();
  const emit = (route: string) => listeners.forEach((listener) => listener(route));

  return {
    serverUrl: '',
    appVersion,

    async notify(notification: PlatformNotification) {
      if (!(await notificationPermission())) return;
      const shown = new Notification(notification.title, { body: notification.body });
      const route = notification.route;
      shown.onclick = () => {
        window.focus();
        if (route) emit(route);
        shown.close();
      };
    },

    onNavigate(listener) {
      listeners.add(listener);
      const worker = navigator.serviceWorker as ServiceWorkerContainer | undefined;
      const onMessage = (event: MessageEvent) => {
        const route = routeFromWorkerMessage(event.data);
        if (route) listener(route);
      };
      worker?.addEventListener('message', onMessage);
      return () => {
        listeners.delete(listener);
        worker?.removeEventListener('message', onMessage);
      };
    },

    async openExternal(url: string) {
      const parsed = externalUrlSchema.safeParse(url);
      if (!parsed.success) throw new Error('Only http, https and mailto links can be opened.');
      window.open(parsed.data, '_blank', 'noopener,noreferrer');
    },

    pickFiles: (options: PickFilesOptions) => pickFilesWithInput(options),

    async saveFile(name: string, data: Blob) {
      const url = URL.createObjectURL(data);
      try {
        const link = document.createElement('a');
        link.href = url;
        link.download = name;
        link.rel = 'noopener';
        document.body.append(link);
        link.click();
        link.remove();
        return true;
      } finally {
        // Revoke after the click has been handled; revoking at once can cancel the download in some browsers.
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      }
    },

    async requestMediaPermission(kind: MediaKind) {
      const media = navigator.mediaDevices as MediaDevices | undefined;
      if (!media?.getUserMedia) return false;
      try {
        const stream = await media.getUserMedia(kind === 'camera' ? { video: true } : { audio: true });
        stream.getTracks().forEach((track) => track.stop());
        return true;
      } catch {
        return false;
      }
    },
  };
}
