import type { MediaKind } from '@campus/protocol';
import { systemPreferences } from 'electron';

/**
 * Only macOS gates camera and microphone per app (TCC) and must be asked before getUserMedia can work;
 * elsewhere the OS does not ask and the session's permission handler is the only gate.
 */
export async function requestMediaAccess(
  kind: MediaKind,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  if (platform !== 'darwin') return true;
  return systemPreferences.askForMediaAccess(kind);
}
