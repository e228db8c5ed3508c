import type { Session } from 'electron';
import { isAppUrl } from './app-origin';

/** Calls need camera and microphone, messages need notifications; the app asks for nothing else. */
const GRANTED_TO_APP = new Set<string>(['media', 'notifications']);

/**
 * The single rule behind both Electron hooks: a listed permission, asked for by the app's own origin.
 * Electron's default is to grant everything to everyone, so an unknown permission must come out false.
 */
export function isPermissionGranted(
  permission: string,
  requestingOrigin: string | null | undefined,
): boolean {
  return GRANTED_TO_APP.has(permission) && isAppUrl(requestingOrigin);
}

/** Media requests may carry their own origin; both it and the frame's URL must be the app's. */
function requestOrigins(details: { requestingUrl?: string; securityOrigin?: string }): string[] {
  return [details.requestingUrl, details.securityOrigin].filter((value): value is string => !!value);
}

export function installPermissionHandlers(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const origins = requestOrigins(details);
    callback(origins.length > 0 && origins.every((origin) => isPermissionGranted(permission, origin)));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionGranted(permission, requestingOrigin),
  );
  // WebHID, WebUSB and Web Serial: no feature uses them.
  session.setDevicePermissionHandler(() => false);
}
