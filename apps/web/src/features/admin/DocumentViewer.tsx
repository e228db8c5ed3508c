import { useEffect, useState } from 'react';
import { ADMIN_MSG } from '@campus/protocol';
import { Spinner } from '../../components/Spinner';
import { isApiError } from '../../lib/api';
import { useApi } from '../../lib/ApiContext';
import { usePlatform } from '../../platform';
import { absoluteUploadUrl } from '../upload/upload-api';
import { fetchDocumentUrl } from './admin-api';

type Zoom = 'fit' | '100' | '200';
const ZOOMS: { zoom: Zoom; label: string }[] = [
  { zoom: 'fit', label: 'Fit' },
  { zoom: '100', label: '100%' },
  { zoom: '200', label: '200%' },
];
const NEXT_ZOOM: Record<Zoom, Zoom> = { fit: '100', '100': '200', '200': 'fit' };

type Loaded =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; url: string; contentType: string };

/** The picture at fit, 100% or 200%; a click moves to the next zoom, the frame scrolls when it is larger. */
function ImageViewer({ url, name }: { url: string; name: string }) {
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [natural, setNatural] = useState<number | null>(null);
  const width = zoom === 'fit' || natural === null ? undefined : natural * (zoom === '200' ? 2 : 1);
  return (
    <div className="doc-viewer">
      <div className="doc-viewer__toolbar" role="group" aria-label="Zoom">
        {ZOOMS.map(({ zoom: z, label }) => (
          <button
            key={z}
            type="button"
            className="button button--ghost button--small"
            aria-pressed={zoom === z}
            onClick={() => setZoom(z)}
          >
            {label}
          </button>
        ))}
      </div>
      {/* Focusable so the keyboard can scroll a zoomed picture. */}
      <div
        className={`doc-viewer__frame doc-viewer__frame--${zoom}`}
        tabIndex={0}
        role="region"
        aria-label="Document"
      >
        <img
          className="doc-viewer__image"
          src={url}
          alt={`Student ID of ${name}`}
          style={width ? { width, maxWidth: 'none', maxHeight: 'none' } : undefined}
          onLoad={(event) => setNatural(event.currentTarget.naturalWidth || null)}
          onClick={() => setZoom((z) => NEXT_ZOOM[z])}
        />
      </div>
    </div>
  );
}

/**
 * The student's document through a short-lived signed URL, fetched when the reviewer opens it: pictures
 * with zoom, PDFs in the browser's own viewer (and in a window of their own, for a closer look).
 */
export function DocumentViewer({ userId, name }: { userId: string; name: string }) {
  const api = useApi();
  const platform = usePlatform();
  /** Whose document the answer is about: another student's shows as loading until theirs arrives. */
  const [answer, setAnswer] = useState<{ userId: string; loaded: Loaded } | null>(null);
  const loaded: Loaded = answer?.userId === userId ? answer.loaded : { kind: 'loading' };

  useEffect(() => {
    const abort = new AbortController();
    fetchDocumentUrl(api, userId, abort.signal).then(
      ({ url, contentType }) => {
        const ready: Loaded = { kind: 'ready', url: absoluteUploadUrl(url, platform.serverUrl), contentType };
        setAnswer({ userId, loaded: ready });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const server = isApiError(error) && error.status !== 404 ? error.serverMessage : undefined;
        setAnswer({ userId, loaded: { kind: 'error', message: server ?? ADMIN_MSG.noDocument } });
      },
    );
    return () => abort.abort();
  }, [api, platform.serverUrl, userId]);

  if (loaded.kind === 'loading')
    return (
      <p className="doc-viewer__status" role="status">
        <Spinner /> Loading the document…
      </p>
    );
  if (loaded.kind === 'error')
    return (
      <p className="form-message form-message--error" role="alert">
        {loaded.message}
      </p>
    );
  if (loaded.contentType !== 'application/pdf') return <ImageViewer url={loaded.url} name={name} />;
  // openExternal takes absolute links only; in the browser a signed path is made one on this origin.
  const external = new URL(loaded.url, window.location.href).toString();
  return (
    <div className="doc-viewer">
      <div className="doc-viewer__toolbar">
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => void platform.openExternal(external)}
        >
          Open the PDF in a new window
        </button>
      </div>
      <iframe className="doc-viewer__pdf" src={loaded.url} title={`Student ID of ${name} (PDF)`} />
    </div>
  );
}
