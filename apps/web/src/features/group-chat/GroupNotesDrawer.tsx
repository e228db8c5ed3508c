import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/Spinner';

// Yjs and its providers load only when someone opens the notes, not with the chat.
const GroupNotesPanel = lazy(() =>
  import('../notes/GroupNotesPanel').then((module) => ({ default: module.GroupNotesPanel })),
);

/** The group's shared notes, over the right side of the chat (the whole width on a phone). */
export function GroupNotesDrawer({
  id,
  groupId,
  onClose,
}: {
  id: string;
  groupId: string;
  onClose: () => void;
}) {
  return (
    <div id={id} className="group-notes-drawer">
      <Suspense
        fallback={
          <div className="group-notes-drawer__loading">
            <Spinner /> Loading notes…
          </div>
        }
      >
        <GroupNotesPanel groupId={groupId} onClose={onClose} />
      </Suspense>
    </div>
  );
}
