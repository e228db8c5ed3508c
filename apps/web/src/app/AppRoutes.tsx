import { Navigate, Route, Routes } from 'react-router-dom';
import { AdminDocumentsPage } from '../features/admin/AdminDocumentsPage';
import { AuthScreen } from '../features/auth/AuthScreen';
import { ChatPage } from '../features/chat/ChatPage';
import { ConfessionsPage } from '../features/confessions/ConfessionsPage';
import { CreateGroupPage } from '../features/create-group/CreateGroupPage';
import { GroupChatPage } from '../features/group-chat/GroupChatPage';
import * as screens from '../features/pages/screens';
import { ProfilePage } from '../features/profile/ProfilePage';
import { FullPageLoading, ServerUnreachable } from '../features/session/FullPageStatus';
import { PublicOnly, RequireAdmin, RequireAuth } from '../features/session/guards';
import { useSession } from '../features/session/session-context';
import { AppShell } from '../features/shell/AppShell';
import { TalkPage } from '../features/talk/TalkPage';
import { UploadDocumentPage } from '../features/upload/UploadDocumentPage';

/** '/' goes to Talk when signed in, otherwise to login. */
function RootRedirect() {
  const { status } = useSession();
  if (status === 'checking') return <FullPageLoading />;
  if (status === 'unreachable') return <ServerUnreachable />;
  return <Navigate to={status === 'signed-in' ? '/talk' : '/login'} replace />;
}

/** The route map of the specification, section 2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/login" element={<AuthScreen />} />
        <Route path="/signup" element={<AuthScreen />} />
      </Route>
      <Route path="/" element={<RootRedirect />} />
      <Route element={<RequireAuth />}>
        <Route element={<AppShell />}>
          <Route path="/upload-document" element={<UploadDocumentPage />} />
          <Route path="/talk" element={<TalkPage />} />
          <Route path="/chat/:userId" element={<ChatPage />} />
          <Route path="/group/:groupId" element={<GroupChatPage />} />
          <Route path="/create-group" element={<CreateGroupPage />} />
          <Route path="/random-talk-options" element={<screens.RandomTalkOptionsPage />} />
          <Route path="/random-audio" element={<screens.RandomAudioPage />} />
          <Route path="/random-video" element={<screens.RandomVideoPage />} />
          <Route path="/random-chat" element={<screens.RandomChatPage />} />
          <Route path="/focused-talk" element={<screens.FocusedTalkPage />} />
          <Route path="/focused-talk-options" element={<screens.FocusedTalkOptionsPage />} />
          <Route path="/friends" element={<screens.FriendsPage />} />
          <Route path="/confessions" element={<ConfessionsPage />} />
          <Route path="/call-history" element={<screens.CallHistoryPage />} />
          <Route path="/profile" element={<ProfilePage />} />
          <Route path="/call" element={<screens.CallPage />} />
          <Route element={<RequireAdmin />}>
            <Route path="/admin/documents" element={<AdminDocumentsPage />} />
          </Route>
        </Route>
      </Route>
      <Route path="*" element={<Navigate to="/talk" replace />} />
    </Routes>
  );
}
