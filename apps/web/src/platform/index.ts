import { DESKTOP_BRIDGE_KEY, type DesktopBridge, type Platform } from '@campus/protocol';
import { createBrowserPlatform } from './browser';
import { createDesktopPlatform } from './desktop';

export { PlatformProvider, usePlatform } from './PlatformContext';

const APP_VERSION = import.meta.env.VITE_APP_VERSION ?? '0.0.0';

function desktopBridge(): DesktopBridge | undefined {
  const candidate = (window as unknown as Record<string, unknown>)[DESKTOP_BRIDGE_KEY];
  return typeof candidate === 'object' && candidate !== null ? (candidate as DesktopBridge) : undefined;
}

/** Chosen once at start-up: the desktop bridge when the preload exposed it, the browser otherwise. */
export function detectPlatform(): Platform {
  const bridge = desktopBridge();
  return bridge ? createDesktopPlatform(bridge) : createBrowserPlatform(APP_VERSION);
}
