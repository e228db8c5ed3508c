import { Link } from 'react-router-dom';
import { ACCESS_MSG, type User } from '@campus/protocol';
import { useSignedInUser } from '../session/session-context';
import './verification-notice.css';

interface NoticeText {
  title: string;
  text: string;
  link: string;
}

/** What a limited account is told, by where its verification stands (the server's words, ACCESS_MSG). */
export function noticeFor(user: Pick<User, 'documentStatus'>): NoticeText {
  switch (user.documentStatus) {
    case 'pending_verification':
      return {
        title: 'Verification Pending',
        text: ACCESS_MSG.pendingVerification,
        link: 'See your verification status',
      };
    case 'rejected':
      return { title: 'Document Rejected', text: ACCESS_MSG.rejected, link: 'Upload again' };
    default:
      return {
        title: 'Verify your student ID',
        text: ACCESS_MSG.verificationRequired,
        link: 'Upload your student ID',
      };
  }
}

/**
 * Shown instead of a control an account may not use yet (post, comment, react, start a chat or group):
 * why, and the way to the upload page, rather than an action that the server would refuse.
 */
export function VerificationNotice() {
  const user = useSignedInUser();
  const notice = noticeFor(user);
  return (
    <div className="verify-notice" role="note" aria-label={notice.title}>
      <p className="verify-notice__title">{notice.title}</p>
      <p>{notice.text}</p>
      {user.documentStatus === 'rejected' && user.rejectionReason ? (
        <p>Reason: {user.rejectionReason}</p>
      ) : null}
      <Link className="verify-notice__link" to={ACCESS_MSG.uploadPath}>
        {notice.link}
      </Link>
    </div>
  );
}
