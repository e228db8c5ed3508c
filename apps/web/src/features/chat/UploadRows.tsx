import type { PendingUpload } from './useAttachmentUploads';

/** The temporary 'Uploading <file name>...' messages with a real progress bar. */
export function UploadRows({ uploads }: { uploads: readonly PendingUpload[] }) {
  return uploads.map((upload) => (
    <div key={upload.id} className="message-row">
      <div className="message message--own">
        <div className="message__column">
          <div className="message__bubble message__bubble--uploading">
            <p className="message__text">Uploading {upload.name}...</p>
            <progress
              className="upload-progress"
              max={1}
              value={upload.progress}
              aria-label={`Uploading ${upload.name}`}
            />
          </div>
        </div>
      </div>
    </div>
  ));
}
