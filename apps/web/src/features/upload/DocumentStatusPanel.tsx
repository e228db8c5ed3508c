import type { ReactNode } from 'react';
import { ACCESS_MSG, UPLOAD, documentStatusBadge, type User } from '@campus/protocol';

function Panel({ tone, title, children }: { tone: string; title: string; children: ReactNode }) {
  return (
    <section className={`upload-status upload-status--${tone}`} aria-label="Verification status">
      <p className={`status-badge status-badge--${tone}`}>{title}</p>
      {children}
    </section>
  );
}

/**
 * Where the student stands: verified (done), waiting for review (what happens next), or rejected (the
 * admin's reason and the way to upload again). Nothing for an account that has not uploaded yet.
 */
export function DocumentStatusPanel({ user }: { user: User }) {
  const status = user.documentStatus;
  const title = documentStatusBadge(status);
  switch (status) {
    case 'verified':
    case 'not_required':
      return (
        <Panel tone={status} title={title}>
          <p className="upload-status__text">
            {status === 'verified'
              ? 'Your student ID is verified. You can post, comment, react and start chats and groups.'
              : 'Your account does not need a student ID. You can use everything.'}
          </p>
        </Panel>
      );
    case 'pending_verification':
      return (
        <Panel tone={status} title={title}>
          <p className="upload-status__text">
            We have your student ID. An admin reviews it within {UPLOAD.manualReviewDays}, and you get a
            notification as soon as it is done. Until then you can read confessions and edit your profile.
          </p>
        </Panel>
      );
    case 'rejected':
      return (
        <Panel tone={status} title={title}>
          <p className="upload-status__text">{ACCESS_MSG.rejected}</p>
          {user.rejectionReason ? (
            <p className="upload-status__reason">
              <strong>Reason: </strong>
              {user.rejectionReason}
            </p>
          ) : null}
        </Panel>
      );
    default:
      return null;
  }
}
