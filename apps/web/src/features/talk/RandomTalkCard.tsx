import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { hasFullAccess } from '@campus/protocol';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { useSignedInUser } from '../session/session-context';
import { profileCompletion, type ProfileCompletion } from '../profile/completion';
import { ProfileCompletionModal } from '../profile/ProfileCompletionModal';
import { PROFILE_EDIT_STATE } from '../profile/profile-route';
import { VerificationNotice } from '../upload/VerificationNotice';

/**
 * Random Talk opens only with a complete profile (otherwise the completion modal offers Profile) and for
 * verified students (the access policy: otherwise why, and the way to upload the ID).
 */
export function RandomTalkCard() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const [incomplete, setIncomplete] = useState<ProfileCompletion | null>(null);
  const [unverified, setUnverified] = useState(false);

  const open = () => {
    const completion = profileCompletion(user);
    if (completion.missing.length > 0) setIncomplete(completion);
    else if (!hasFullAccess(user)) setUnverified(true);
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
      {incomplete ? (
        <ProfileCompletionModal
          completion={incomplete}
          onCancel={() => setIncomplete(null)}
          onComplete={() => void navigate('/profile', { state: PROFILE_EDIT_STATE })}
        />
      ) : null}
      {unverified ? (
        <Dialog title="Random Talk" onClose={() => setUnverified(false)} size="narrow">
          <VerificationNotice />
        </Dialog>
      ) : null}
    </>
  );
}
