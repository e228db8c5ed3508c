import { externalUrlSchema } from '@campus/protocol';
import { shell } from 'electron';

/**
 * Only web and mail links leave the app. shell.openExternal with file:, smb: or a custom scheme can launch
 * programs, so every other scheme is refused however the renderer asks.
 */
export function isSafeExternalUrl(url: string): boolean {
  return externalUrlSchema.safeParse(url).success;
}

/** Returns whether the URL was handed to the OS. */
export async function openExternalSafely(url: string): Promise<boolean> {
  if (!isSafeExternalUrl(url)) return false;
  await shell.openExternal(url);
  return true;
}

/**
 * window.open and target=_blank never create an Electron window (it would get default, weaker
 * webPreferences); safe links open in the user's browser instead.
 */
export function handleWindowOpen({ url }: { url: string }): { action: 'deny' } {
  void openExternalSafely(url).catch((error: unknown) => {
    console.error('Could not open an external link', error);
  });
  return { action: 'deny' };
}
