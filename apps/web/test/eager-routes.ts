import type { ReactNode } from 'react';
import { AdminDocumentsPage } from '../src/features/admin/AdminDocumentsPage';
import { AdminCollegesPage } from '../src/features/admin/colleges/AdminCollegesPage';
import { AdminReportsPage } from '../src/features/admin/reports/AdminReportsPage';
import { AuthScreen } from '../src/features/auth/AuthScreen';
import { CallHistoryPage } from '../src/features/calls/CallHistoryPage';
import { CallScreen } from '../src/features/calls/CallScreen';
import { ChatPage } from '../src/features/chat/ChatPage';
import { ConfessionsPage } from '../src/features/confessions/ConfessionsPage';
import { CreateGroupPage } from '../src/features/create-group/CreateGroupPage';
import { GroupChatPage } from '../src/features/group-chat/GroupChatPage';
import { FriendsPage } from '../src/features/friends/FriendsPage';
import { ProfilePage } from '../src/features/profile/ProfilePage';
import { FocusedTalkOptionsPage } from '../src/features/random/focused/FocusedTalkOptionsPage';
import { FocusedTalkPage } from '../src/features/random/focused/FocusedTalkPage';
import { RandomAudioPage } from '../src/features/random/RandomAudioPage';
import { RandomChatPage } from '../src/features/random/RandomChatPage';
import { RandomTalkOptionsPage } from '../src/features/random/RandomTalkOptionsPage';
import { RandomVideoPage } from '../src/features/random/RandomVideoPage';
import { AppShell } from '../src/features/shell/AppShell';
import { TalkPage } from '../src/features/talk/TalkPage';
import { UploadDocumentPage } from '../src/features/upload/UploadDocumentPage';
import type * as LazyRoutes from '../src/app/lazy-routes';

/**
 * The routes' screens, imported up front. The screen tests check behaviour and read the first render at
 * once, as the app did before screens became lazy chunks; lazy-routes.test.tsx covers the lazy loading.
 */
const eager = (Screen: () => ReactNode): LazyRoutes.LazyRoute => ({
  Screen,
  preload: async () => ({ default: Screen }),
});

export const AUTH = eager(AuthScreen);
export const SHELL = eager(AppShell);
export const TALK = eager(TalkPage);
export const CHAT = eager(ChatPage);
export const GROUP = eager(GroupChatPage);
export const CREATE_GROUP = eager(CreateGroupPage);
export const CONFESSIONS = eager(ConfessionsPage);
export const PROFILE = eager(ProfilePage);
export const UPLOAD = eager(UploadDocumentPage);
export const ADMIN = eager(AdminDocumentsPage);
export const ADMIN_COLLEGES = eager(AdminCollegesPage);
export const ADMIN_REPORTS = eager(AdminReportsPage);
export const FRIENDS = eager(FriendsPage);
export const CALL = eager(CallScreen);
export const CALL_HISTORY = eager(CallHistoryPage);
export const RANDOM_TALK: typeof LazyRoutes.RANDOM_TALK = {
  options: eager(RandomTalkOptionsPage),
  audio: eager(RandomAudioPage),
  video: eager(RandomVideoPage),
  chat: eager(RandomChatPage),
  focused: eager(FocusedTalkPage),
  focusedOptions: eager(FocusedTalkOptionsPage),
};
export const preloadRoute: typeof LazyRoutes.preloadRoute = () => undefined;
