import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { CONFESSION_MSG, type Confession } from '@campus/protocol';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSignedInUser } from '../session/session-context';
import { CommentsPanel } from './CommentsPanel';
import { ComposerDialog } from './ComposerDialog';
import { collegeName } from './confessions-api';
import { FeedList } from './FeedList';
import { FeedTabs } from './FeedTabs';
import { NicknameChooser } from './NicknameChooser';
import { useFeed, type FeedTab } from './useFeed';
import { useNickname } from './useNickname';
import './confessions.css';

type Modal =
  /** `then`: what the user was doing when the chooser opened, reopened once a nickname is set. */
  { kind: 'nickname'; then?: Modal } | { kind: 'composer' } | { kind: 'comments'; id: string } | null;

/** Confessions: anonymous posts of the user's college or everyone, with reactions, comments and sharing. */
export function ConfessionsPage() {
  useDocumentTitle('Confessions');
  const navigate = useNavigate();
  const user = useSignedInUser();
  const college = collegeName(user.college);
  const [params] = useSearchParams();
  const targetId = params.get('confessionId');
  // A linked confession may be from any college: a new link (also while already here) opens All.
  const [choice, setChoice] = useState<{ tab: FeedTab; target: string | null }>({
    tab: college && !targetId ? 'college' : 'all',
    target: targetId,
  });
  const tab: FeedTab = targetId && choice.target !== targetId ? 'all' : choice.tab;
  const setTab = (next: FeedTab) => setChoice({ tab: next, target: targetId });
  const feed = useFeed(tab, college);
  const nickname = useNickname();
  const [modal, setModal] = useState<Modal>(null);
  const hasNickname = nickname.state.kind !== 'none';
  const nicknameText = nickname.state.kind === 'set' ? nickname.state.nickname : 'Anon';

  /** Posting, reacting and commenting need a nickname: without one the chooser opens instead. */
  function needsNickname(then?: Modal): boolean {
    if (hasNickname) return false;
    setModal({ kind: 'nickname', then });
    return true;
  }

  const commenting: Confession | undefined =
    modal?.kind === 'comments' ? feed.items.find((item) => item.id === modal.id) : undefined;

  return (
    <section className="page cf-page" aria-labelledby="page-title">
      <header className="cf-header">
        <button
          type="button"
          className="icon-button"
          aria-label="Back to Talk"
          onClick={() => void navigate('/talk')}
        >
          <Icon name="arrowLeft" size={20} />
        </button>
        <div className="cf-header__titles">
          <h1 className="page__title" id="page-title">
            Confessions
          </h1>
          {feed.total !== null ? (
            <p className="cf-header__count">
              {feed.total} {feed.total === 1 ? 'confession' : 'confessions'}
            </p>
          ) : null}
        </div>
      </header>
      <FeedTabs
        tab={tab}
        onTab={setTab}
        hasCollege={college !== null}
        collegeTotal={feed.collegeTotal}
        total={feed.total}
      />

      {nickname.state.kind === 'none' ? (
        <div className="cf-banner">
          <p>{CONFESSION_MSG.nicknameBanner}</p>
          <button
            type="button"
            className="button button--primary button--small"
            onClick={() => setModal({ kind: 'nickname' })}
          >
            Choose nickname
          </button>
        </div>
      ) : null}

      <FeedList
        feed={feed}
        tab={tab}
        targetId={targetId}
        needsNickname={() => needsNickname()}
        onComments={(id) => setModal({ kind: 'comments', id })}
      />

      <button
        type="button"
        className="button button--primary cf-fab"
        onClick={() => {
          if (!needsNickname({ kind: 'composer' })) setModal({ kind: 'composer' });
        }}
      >
        <Icon name="sparkles" size={18} />
        <span>{CONFESSION_MSG.postButton}</span>
      </button>

      {modal?.kind === 'nickname' ? (
        <NicknameChooser
          onClose={() => setModal(null)}
          onChosen={(name) => {
            nickname.chosen(name);
            setModal(modal.then ?? null);
          }}
        />
      ) : null}
      {modal?.kind === 'composer' ? (
        <ComposerDialog
          college={college}
          nickname={nicknameText}
          onClose={() => setModal(null)}
          onPosted={() => {
            setModal(null);
            void feed.reload();
          }}
        />
      ) : null}
      {commenting ? (
        <CommentsPanel
          confession={commenting}
          nickname={nicknameText}
          canWrite={hasNickname}
          onNeedNickname={() => setModal({ kind: 'nickname', then: modal })}
          onClose={() => setModal(null)}
          onCommented={(count) => feed.patch(commenting.id, (item) => ({ ...item, commentCount: count }))}
        />
      ) : null}
    </section>
  );
}
