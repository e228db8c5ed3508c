import { useState } from 'react';
import { UPLOAD, UPLOAD_MSG } from '@campus/protocol';
import { ProgressBar } from '../../components/ProgressBar';
import { CameraDialog } from './CameraDialog';
import type { ImageDecoder } from './compress';
import { DocumentDropzone } from './DocumentDropzone';
import { DocumentPreview, RecognizedFields } from './DocumentPreview';
import { StepIndicator } from './StepIndicator';
import { useDocumentUpload, type UploadState } from './useDocumentUpload';

function currentStep(state: UploadState): 1 | 2 | 3 {
  if (!state.file) return 1;
  const ready = state.manual || (state.recognized !== null && state.problems.length === 0);
  return !state.checking && ready ? 3 : 2;
}

/** Choose → check → submit: the upload itself, below the page's status. */
export function UploadForm({ decode }: { decode: ImageDecoder }) {
  const { state, choose, remove, submit } = useDocumentUpload(decode);
  const [camera, setCamera] = useState(false);
  const busy = state.submitting || state.done;

  return (
    <div className="upload-form">
      <StepIndicator step={currentStep(state)} />
      {state.file ? (
        <DocumentPreview
          file={state.file}
          preview={state.preview}
          checking={state.checking}
          busy={busy}
          onRemove={remove}
        />
      ) : (
        <DocumentDropzone
          disabled={state.checking || busy}
          onFile={(file) => void choose(file)}
          onTakePhoto={() => setCamera(true)}
        />
      )}

      {state.recognized && !state.checking ? (
        <section className="upload-reading" aria-labelledby="upload-reading-title">
          <h2 className="upload-reading__title" id="upload-reading-title">
            What we read on your ID
          </h2>
          <RecognizedFields result={state.recognized} label="Detected fields" />
          {state.problems.length > 0 ? (
            <ul className="upload-problems" aria-label="Problems found">
              {state.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          ) : (
            <p className="upload-reading__ok">Everything we need is readable.</p>
          )}
        </section>
      ) : null}

      {state.manual ? (
        <p className="upload-manual" role="status">
          {UPLOAD_MSG.manualMode}
        </p>
      ) : null}
      {state.error ? (
        <p className="form-message form-message--error" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.progress !== null && !state.done ? (
        <ProgressBar fraction={state.progress} label="Upload progress" text="Uploading…" />
      ) : null}
      {state.done ? (
        <p className="form-message form-message--success" role="status">
          {UPLOAD_MSG.submitted}
        </p>
      ) : null}

      <div className="page__actions page__actions--end">
        <button
          type="button"
          className="button button--primary"
          disabled={state.checking || busy}
          onClick={() => void submit()}
        >
          {state.submitting ? 'Uploading…' : state.manual ? 'Submit for manual review' : 'Submit'}
        </button>
      </div>
      <p className="page__note">
        Manual review takes {UPLOAD.manualReviewDays}. Your document is only seen by you and the admins.
      </p>

      {camera ? (
        <CameraDialog
          onClose={() => setCamera(false)}
          onCapture={(file) => {
            setCamera(false);
            void choose(file);
          }}
        />
      ) : null}
    </div>
  );
}
