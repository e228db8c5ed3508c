import { useEffect, useRef, useState } from 'react';
import { UPLOAD, UPLOAD_MSG, type Platform } from '@campus/protocol';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { usePlatform } from '../../platform';
import { canvasBlob } from './canvas-encoder';

const CONSTRAINTS: MediaStreamConstraints = {
  // The back camera on phones; a card's small print needs the resolution.
  video: { facingMode: 'environment', width: { ideal: 1920 }, height: { ideal: 1080 } },
  audio: false,
};

/**
 * The camera stream. A first refusal may only mean the operating system was never asked (the desktop app
 * on macOS): the Platform asks it, then the camera is tried once more.
 */
async function openCamera(platform: Platform): Promise<MediaStream> {
  const media = navigator.mediaDevices as MediaDevices | undefined;
  if (!media?.getUserMedia) throw new Error('No camera API here.');
  try {
    return await media.getUserMedia(CONSTRAINTS);
  } catch (error) {
    if (!(await platform.requestMediaPermission('camera'))) throw error;
    return media.getUserMedia(CONSTRAINTS);
  }
}

type CameraState = 'starting' | 'live' | 'error';

/** Take Photo: a live preview, and the frame captured as a JPEG at quality 0.8 (spec section 9). */
export function CameraDialog({ onCapture, onClose }: { onCapture(file: File): void; onClose(): void }) {
  const platform = usePlatform();
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>('starting');
  const [capturing, setCapturing] = useState(false);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let live = true;
    openCamera(platform).then(
      (opened) => {
        stream = opened;
        if (!live) {
          opened.getTracks().forEach((track) => track.stop());
          return;
        }
        const element = video.current;
        if (!element) return;
        // Capture needs the frame's size, known once the metadata loaded: until then it stays 'starting'.
        element.addEventListener('loadedmetadata', () => live && setState('live'), { once: true });
        element.srcObject = opened;
      },
      () => live && setState('error'),
    );
    return () => {
      live = false;
      // The camera light goes off as soon as the dialog closes.
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [platform]);

  async function capture() {
    const element = video.current;
    if (!element || !element.videoWidth) return;
    setCapturing(true);
    try {
      const blob = await canvasBlob(
        element,
        element.videoWidth,
        element.videoHeight,
        'image/jpeg',
        UPLOAD.cameraQuality,
      );
      onCapture(new File([blob], `student-id-${Date.now()}.jpg`, { type: 'image/jpeg' }));
    } catch {
      setState('error');
      setCapturing(false);
    }
  }

  return (
    <Dialog title="Take Photo" onClose={onClose}>
      {state === 'error' ? (
        <p className="form-message form-message--error" role="alert">
          {UPLOAD_MSG.camera}
        </p>
      ) : (
        <div className="upload-camera">
          <video
            ref={video}
            className="upload-camera__video"
            autoPlay
            muted
            playsInline
            aria-label="Camera preview"
          />
          {state === 'starting' ? (
            <p className="upload-camera__status" role="status">
              <Spinner /> Starting the camera…
            </p>
          ) : (
            <p className="upload-camera__hint">Fit the whole card in the frame, in good light.</p>
          )}
        </div>
      )}
      <div className="modal__actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          {state === 'error' ? 'Close' : 'Cancel'}
        </button>
        {state !== 'error' ? (
          <button
            type="button"
            className="button button--primary"
            disabled={state !== 'live' || capturing}
            onClick={() => void capture()}
          >
            Capture
          </button>
        ) : null}
      </div>
    </Dialog>
  );
}
