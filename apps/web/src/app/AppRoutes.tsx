import { useEffect, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { FullPageLoading, ServerUnreachable } from '../features/session/FullPageStatus';
import { PublicOnly, RequireAdmin, RequireAuth } from '../features/session/guards';
import { useSession } from '../features/session/session-context';
import {
  ADMIN,
  ADMIN_COLLEGES,
  ADMIN_REPORTS,
  AUTH,
  CALL,
  CALL_HISTORY,
  CHAT,
  CONFESSIONS,
  CREATE_GROUP,
  GROUP,
  FRIENDS,
  PROFILE,
  RANDOM_TALK as R,
  SHELL,
  TALK,
  UPLOAD,
  preloadRoute,
} from './lazy-routes';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { PageLoading, ScreenLoading } from './RouteLoading';

/** '/' goes to Talk when signed in, otherwise to login. */
function RootRedirect() {
  const { status } = useSession();
  if (status === 'checking') return <FullPageLoading />;
  if (status === 'unreachable') return <ServerUnreachable />;
  return <Navigate to={status === 'signed-in' ? '/talk' : '/login'} replace />;
}

type Lazy = ComponentType<{ fallback: ReactNode }>;

/** A whole screen: nothing of the app is on the page yet while it loads. */
function screen(Screen: Lazy) {
  return <Screen fallback={<ScreenLoading />} />;
}

/** A page inside the shell: the sidebar and top bar stay up while the page loads. */
function page(Page: Lazy) {
  return <Page fallback={<PageLoading />} />;
}

/**
 * Each navigation fetches the shell's and the page's chunks together (see preloadRoute). After the first
 * paint, not before it: the chunks then download while the session is checked.
 */
function usePreloadRoute(): void {
  const { pathname } = useLocation();
  const { status } = useSession();
  useEffect(() => preloadRoute(pathname, status !== 'signed-out'), [pathname, status]);
}

/** The route map of the specification, section 2. */
export function AppRoutes() {
  usePreloadRoute();
  return (
    <RouteErrorBoundary>
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={screen(AUTH.Screen)} />
          <Route path="/signup" element={screen(AUTH.Screen)} />
        </Route>
        <Route path="/" element={<RootRedirect />} />
        <Route element={<RequireAuth />}>
          <Route element={screen(SHELL.Screen)}>
            <Route path="/upload-document" element={page(UPLOAD.Screen)} />
            <Route path="/talk" element={page(TALK.Screen)} />
            <Route path="/chat/:userId" element={page(CHAT.Screen)} />
            <Route path="/group/:groupId" element={page(GROUP.Screen)} />
            <Route path="/create-group" element={page(CREATE_GROUP.Screen)} />
            <Route path="/random-talk-options" element={page(R.options.Screen)} />
            <Route path="/random-audio" element={page(R.audio.Screen)} />
            <Route path="/random-video" element={page(R.video.Screen)} />
            <Route path="/random-chat" element={page(R.chat.Screen)} />
            <Route path="/focused-talk" element={page(R.focused.Screen)} />
            <Route path="/focused-talk-options" element={page(R.focusedOptions.Screen)} />
            <Route path="/friends" element={page(FRIENDS.Screen)} />
            <Route path="/confessions" element={page(CONFESSIONS.Screen)} />
            <Route path="/call-history" element={page(CALL_HISTORY.Screen)} />
            <Route path="/profile" element={page(PROFILE.Screen)} />
            <Route path="/call" element={page(CALL.Screen)} />
            <Route element={<RequireAdmin />}>
              <Route path="/admin/documents" element={page(ADMIN.Screen)} />
              <Route path="/admin/colleges" element={page(ADMIN_COLLEGES.Screen)} />
              <Route path="/admin/reports" element={page(ADMIN_REPORTS.Screen)} />
            </Route>
          </Route>
        </Route>
        <Route path="*" element={<Navigate to="/talk" replace />} />
      </Routes>
    </RouteErrorBoundary>
  );
}
