import { useNavigate } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import './upload.css';

/** Student-ID verification. The upload itself arrives in a later update; skipping it already works. */
export function UploadDocumentPage() {
  useDocumentTitle('Verify your student ID');
  const navigate = useNavigate();
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
      <div className="upload-card">
        <span className="upload-card__icon">
          <Icon name="shield" size={28} />
        </span>
        <p className="upload-card__title">Uploading your student ID</p>
        <p className="upload-card__text">Arrives in a coming update. Until then you can look around.</p>
      </div>
      <div className="page__actions">
        <button type="button" className="button button--secondary" onClick={() => navigate('/talk')}>
          I&apos;ll do this later
        </button>
      </div>
    </section>
  );
}
