import { CALL_MSG, type CallType, type Platform } from '@campus/protocol';

export type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

/** The browser's getUserMedia, or a refusal where there is none (an insecure origin). */
export const browserGetUserMedia: GetUserMedia = (constraints) => {
  const media = navigator.mediaDevices as MediaDevices | undefined;
  if (!media?.getUserMedia) return Promise.reject(new Error(CALL_MSG.microphoneRequired));
  return media.getUserMedia(constraints);
};

/** The call was given up while a permission was being asked: nothing more is opened. */
export class MediaNoLongerWanted extends Error {}

/**
 * The spec's media rule: the microphone for every call, the camera too for video, asked through the
 * Platform (the desktop app asks the OS), then opened. Rejects with the text to show. `stillWanted` is
 * asked between the steps: a call cancelled during the microphone prompt does not go on to the camera.
 */
export async function openLocalMedia(
  platform: Platform,
  getUserMedia: GetUserMedia,
  callType: CallType,
  stillWanted: () => boolean = () => true,
): Promise<MediaStream> {
  const check = () => {
    if (!stillWanted()) throw new MediaNoLongerWanted();
  };
  if (!(await platform.requestMediaPermission('microphone').catch(() => false))) {
    throw new Error(CALL_MSG.microphoneRequired);
  }
  check();
  if (callType === 'video' && !(await platform.requestMediaPermission('camera').catch(() => false))) {
    throw new Error(CALL_MSG.cameraRequired);
  }
  check();
  try {
    return await getUserMedia({ audio: true, video: callType === 'video' });
  } catch (error) {
    // The browser's own words when it has some (no device, device busy).
    const fallback = callType === 'video' ? CALL_MSG.cameraRequired : CALL_MSG.microphoneRequired;
    // A DOMException from another realm (an iframe, a test DOM) is not `instanceof Error`.
    const message = (error as { message?: unknown } | null)?.message;
    throw new Error(typeof message === 'string' && message ? message : fallback, { cause: error });
  }
}

/** Every path out of a call ends here: the camera light and the microphone go off. */
export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((track) => track.stop());
}
