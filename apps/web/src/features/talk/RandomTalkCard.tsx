import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { useSignedInUser } from '../session/session-context';
import { Dialog } from '../../components/Dialog';
import './modal.css';
import { missingRandomTalkFields } from './profile-requirements';

/** Random Talk opens only with a complete profile; otherwise it says what is missing and offers Profile. */
export function RandomTalkCard() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const [missing, setMissing] = useState<string[] | null>(null);

  const open = () => {
    const fields = missingRandomTalkFields(user);
    if (fields.length > 0) setMissing(fields);
    else void navigate('/random-talk-options');
  };

  return (
    <>
      <button type="button" className="talk-card talk-card--random" onClick={open}>
        <span className="talk-card__icon">
          <Icon name="sparkles" size={24} />
        </span>
        <span className="talk-card__title">Random Talk</span>
        <span className="talk-card__text">Meet a random verified student by voice, video or text.</span>
      </button>
      {missing ? (
        <Dialog
          title="Complete your profile"
          onClose={() => setMissing(null)}
          size="narrow"
          closeButton={false}
        >
          <p className="modal__text">Random Talk needs a few details on your profile first. Missing:</p>
          <ul className="modal__list">
            {missing.map((field) => (
              <li key={field}>{field}</li>
            ))}
          </ul>
          <div className="modal__actions">
            <button type="button" className="button button--ghost" onClick={() => setMissing(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={() => void navigate('/profile')}
            >
              Go to Profile
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
