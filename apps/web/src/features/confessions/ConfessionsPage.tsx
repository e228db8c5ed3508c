import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { CONFESSION_MSG, hasFullAccess } from '@campus/protocol';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useNow } from '../notifications/useNow';
import { useSignedInUser } from '../session/session-context';
import { VerificationNotice } from '../upload/VerificationNotice';
import { CommentsPanel } from './CommentsPanel';
import { ComposerDialog } from './ComposerDialog';
import { collegeName } from './confessions-api';
import { FeedList } from './FeedList';
import { FeedTabs } from './FeedTabs';
import { NicknameChooser } from './NicknameChooser';
import { QueuedWrites } from './queued-writes';
import { useFeed, type FeedTab } from './useFeed';
import { useNickname } from './useNickname';
import './confessions.css';

type Modal =
  /**
   * `then`: the dialog the user was in when the chooser opened, reopened once a nickname is set; `retry`:
   * the action that opened it (a reaction), run then.
   */
  | { kind: 'nickname'; then?: Modal; retry?: () => void }
  | { kind: 'composer' }
  | { kind: 'comments'; id: string }
  /** An account that is not verified yet tried to post or react: why not, and where to verify. */
  | { kind: 'verify' }
  | null;

/** Relative times ('5m ago') of cards and comments refresh every 60 s (spec section 9). */
const TIME_REFRESH_MS = 60_000;

/** Confessions: anonymous posts of the user's college or everyone, with reactions, comments and sharing. */
export function ConfessionsPage() {
  useDocumentTitle('Confessions');
  const navigate = useNavigate();
  const user = useSignedInUser();
  const college = collegeName(user.college);
  const [params] = useSearchParams();
  const targetId = params.get('confessionId');
  const navigation = useLocation().key;
  // A linked confession may be from any college: each opening of a link (also the same one again, while
  // already here) shows All, until the user picks a tab during that visit.
  const [choice, setChoice] = useState<{ tab: FeedTab; navigation: string | null }>({
    tab: college ? 'college' : 'all',
    navigation: null,
  });
  const linked = targetId !== null && choice.navigation !== navigation;
  const tab: FeedTab = linked ? 'all' : choice.tab;
  const setTab = (next: FeedTab) => setChoice({ tab: next, navigation });
  const feed = useFeed(tab, college);
  // A notification opened while already here: its card's counts are news, so the feed loads again.
  const { reload } = feed;
  const seenNavigation = useRef(navigation);
  useEffect(() => {
    if (seenNavigation.current === navigation) return;
    seenNavigation.current = navigation;
    if (targetId !== null) void reload();
  }, [navigation, targetId, reload]);
  const nickname = useNickname();
  const now = useNow(TIME_REFRESH_MS);
  const [writes] = useState(() => new QueuedWrites());
  const [modal, setModal] = useState<Modal>(null);
  const [draft, setDraft] = useState({ id: '', text: '' });
  const hasNickname = nickname.state.kind !== 'none';
  const full = hasFullAccess(user);
  const nicknameText = nickname.state.kind === 'set' ? nickname.state.nickname : 'Anon';

  /** Posting, reacting and commenting need a nickname: without one the chooser opens instead. */
  function needsNickname(then?: Modal, retry?: () => void): boolean {
    // Before the nickname: the server would refuse the write whatever the nickname (the access policy).
    if (!full) {
      setModal({ kind: 'verify' });
      return true;
    }
    if (hasNickname) return false;
    setModal({ kind: 'nickname', then, retry });
    return true;
  }

  const commenting = modal?.kind === 'comments' ? feed.items.find((item) => item.id === modal.id) : undefined;

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

      {!full ? <VerificationNotice /> : null}
      {full && nickname.state.kind === 'none' ? (
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
        targetId={linked ? targetId : null}
        now={now}
        writes={writes}
        needsNickname={(retry) => needsNickname(undefined, retry)}
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
            modal.retry?.();
          }}
        />
      ) : null}
      {modal?.kind === 'verify' ? (
        <Dialog title="Student ID needed" onClose={() => setModal(null)} size="narrow">
          <VerificationNotice />
        </Dialog>
      ) : null}
      {modal?.kind === 'composer' ? (
        <ComposerDialog
          college={college}
          nickname={nicknameText}
          onClose={() => setModal(null)}
          onPosted={() => setModal(null)}
        />
      ) : null}
      {commenting ? (
        <CommentsPanel
          confession={commenting}
          nickname={nicknameText}
          canWrite={hasNickname}
          locked={full ? undefined : <VerificationNotice />}
          now={now}
          writes={writes}
          draft={draft.id === commenting.id ? draft.text : ''}
          onDraft={(change) =>
            setDraft((d) => ({ id: commenting.id, text: change(d.id === commenting.id ? d.text : '') }))
          }
          onNeedNickname={() => setModal({ kind: 'nickname', then: modal })}
          onClose={() => setModal(null)}
        />
      ) : null}
    </section>
  );
}
