import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { canUploadDocument } from '@campus/protocol';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSignedInUser } from '../session/session-context';
import { decodeWithCanvas } from './canvas-encoder';
import { DocumentStatusPanel } from './DocumentStatusPanel';
import { UploadForm } from './UploadForm';
import './upload.css';

/** Student-ID verification: the current status, and the upload when one is (still) possible. */
export function UploadDocumentPage() {
  useDocumentTitle('Verify your student ID');
  const navigate = useNavigate();
  const user = useSignedInUser();
  const canUpload = canUploadDocument(user.documentStatus);
  // Waiting for review: a student may still replace the document, but only when they ask to. The form
  // stays open once shown, so its success message outlives the status change it causes.
  const [formOpen, setFormOpen] = useState(user.documentStatus !== 'pending_verification');
  const finished = user.documentStatus === 'verified' || user.documentStatus === 'not_required';

  return (
    <section className="page page--narrow" aria-labelledby="page-title">
      <header className="page__header">
        <h1 className="page__title" id="page-title">
          Verify your student ID
        </h1>
        <p className="page__lead">
          Campus Talk is only for students. A quick check of your student ID keeps it that way.
        </p>
      </header>
      <DocumentStatusPanel user={user} />
      {canUpload && formOpen ? <UploadForm decode={decodeWithCanvas} /> : null}
      <div className="page__actions">
        {canUpload && !formOpen ? (
          <button type="button" className="button button--secondary" onClick={() => setFormOpen(true)}>
            Upload a different document
          </button>
        ) : null}
        <button
          type="button"
          className={`button ${finished ? 'button--primary' : 'button--secondary'}`}
          onClick={() => void navigate('/talk')}
        >
          {finished ? 'Go to Talk' : canUpload && formOpen ? "I'll do this later" : 'Back to Talk'}
        </button>
      </div>
    </section>
  );
}
