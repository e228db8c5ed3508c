import { createElement, useEffect, useState, type ComponentType, type ReactNode } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

/** A route's screen, loaded on demand, whose download can also be started before React asks for it. */
export interface LazyRoute {
  /** The screen, or `fallback` while its chunk downloads; a failed download throws to the error boundary. */
  Screen: ComponentType<{ fallback: ReactNode }>;
  preload: Loader;
}

function route(load: Loader): LazyRoute {
  let pending: ReturnType<Loader> | undefined;
  let loaded: ComponentType | undefined;
  // One download whether the preload or React's first render asks first; a failed one may be retried.
  const once: Loader = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ));
  /*
   * Not React.lazy: a suspended screen is revealed at most every 300 ms (React throttles Suspense), and the
   * shell then the page put Talk home on screen 0.6 s late in a measurement (bench/first-load.ts). State
   * set when the chunk lands renders at once; a chunk already there (preloaded while the session was being
   * checked) renders on the first pass.
   */
  function Screen({ fallback }: { fallback: ReactNode }) {
    const [state, setState] = useState<{ Component?: ComponentType; error?: unknown }>(() => ({
      Component: loaded,
    }));
    useEffect(() => {
      if (state.Component) return;
      let live = true;
      once().then(
        (module) => live && setState({ Component: module.default }),
        (error: unknown) => live && setState({ error }),
      );
      return () => {
        live = false;
      };
    }, [state.Component]);
    if (state.error !== undefined) throw state.error;
    return state.Component ? createElement(state.Component) : fallback;
  }
  return { Screen, preload: once };
}

/*
 * Every screen is its own chunk, so the entry holds only the router, session and theme. The heavy parts
 * stay with the screens that need them: the sync engine and Dexie with the signed-in shell, Yjs with group
 * notes, html-to-image with confessions, the emoji picker with the composer (already lazy there).
 */
export const AUTH = route(() =>
  import('../features/auth/AuthScreen').then((m) => ({ default: m.AuthScreen })),
);
export const SHELL = route(() => import('../features/shell/AppShell').then((m) => ({ default: m.AppShell })));
export const TALK = route(() => import('../features/talk/TalkPage').then((m) => ({ default: m.TalkPage })));
export const CHAT = route(() => import('../features/chat/ChatPage').then((m) => ({ default: m.ChatPage })));
export const GROUP = route(() =>
  import('../features/group-chat/GroupChatPage').then((m) => ({ default: m.GroupChatPage })),
);
export const CREATE_GROUP = route(() =>
  import('../features/create-group/CreateGroupPage').then((m) => ({ default: m.CreateGroupPage })),
);
export const CONFESSIONS = route(() =>
  import('../features/confessions/ConfessionsPage').then((m) => ({ default: m.ConfessionsPage })),
);
export const PROFILE = route(() =>
  import('../features/profile/ProfilePage').then((m) => ({ default: m.ProfilePage })),
);
export const UPLOAD = route(() =>
  import('../features/upload/UploadDocumentPage').then((m) => ({ default: m.UploadDocumentPage })),
);
export const ADMIN = route(() =>
  import('../features/admin/AdminDocumentsPage').then((m) => ({ default: m.AdminDocumentsPage })),
);
export const FRIENDS = route(() =>
  import('../features/friends/FriendsPage').then((m) => ({ default: m.FriendsPage })),
);
export const ADMIN_COLLEGES = route(() =>
  import('../features/admin/colleges/AdminCollegesPage').then((m) => ({ default: m.AdminCollegesPage })),
);
export const ADMIN_REPORTS = route(() =>
  import('../features/admin/reports/AdminReportsPage').then((m) => ({ default: m.AdminReportsPage })),
);

export const CALL = route(() =>
  import('../features/calls/CallScreen').then((m) => ({ default: m.CallScreen })),
);
export const CALL_HISTORY = route(() =>
  import('../features/calls/CallHistoryPage').then((m) => ({ default: m.CallHistoryPage })),
);

/** Random and focused talk: each screen its own chunk (simple-peer still loads with the first room). */
export const RANDOM_TALK = {
  options: route(() =>
    import('../features/random/RandomTalkOptionsPage').then((m) => ({ default: m.RandomTalkOptionsPage })),
  ),
  audio: route(() =>
    import('../features/random/RandomAudioPage').then((m) => ({ default: m.RandomAudioPage })),
  ),
  video: route(() =>
    import('../features/random/RandomVideoPage').then((m) => ({ default: m.RandomVideoPage })),
  ),
  chat: route(() => import('../features/random/RandomChatPage').then((m) => ({ default: m.RandomChatPage }))),
  focused: route(() =>
    import('../features/random/focused/FocusedTalkPage').then((m) => ({ default: m.FocusedTalkPage })),
  ),
  focusedOptions: route(() =>
    import('../features/random/focused/FocusedTalkOptionsPage').then((m) => ({
      default: m.FocusedTalkOptionsPage,
    })),
  ),
} satisfies Record<string, LazyRoute>;

const SIGNED_IN_PAGES: [RegExp, LazyRoute][] = [
  [/^\/talk\/?$/, TALK],
  [/^\/chat\//, CHAT],
  [/^\/group\//, GROUP],
  [/^\/create-group\/?$/, CREATE_GROUP],
  [/^\/confessions\/?$/, CONFESSIONS],
  [/^\/profile\/?$/, PROFILE],
  [/^\/friends\/?$/, FRIENDS],
  [/^\/call\/?$/, CALL],
  [/^\/call-history\/?$/, CALL_HISTORY],
  [/^\/random-talk-options\/?$/, RANDOM_TALK.options],
  [/^\/random-audio\/?$/, RANDOM_TALK.audio],
  [/^\/random-video\/?$/, RANDOM_TALK.video],
  [/^\/random-chat\/?$/, RANDOM_TALK.chat],
  [/^\/focused-talk\/?$/, RANDOM_TALK.focused],
  [/^\/focused-talk-options\/?$/, RANDOM_TALK.focusedOptions],
  [/^\/upload-document\/?$/, UPLOAD],
  [/^\/admin\/colleges\/?$/, ADMIN_COLLEGES],
  [/^\/admin\/reports\/?$/, ADMIN_REPORTS],
  [/^\/admin\//, ADMIN],
];

/**
 * Starts the downloads a path will need, all at once: without it the shell's chunk would load, render, and
 * only then ask for the page's (a second round trip on every first visit). Failures surface later, in React.
 */
export function preloadRoute(pathname: string, signedIn: boolean): void {
  const wanted: LazyRoute[] = [];
  if (/^\/(?:login|signup)\/?$/.test(pathname)) wanted.push(AUTH);
  else if (pathname === '/' || pathname === '') wanted.push(...(signedIn ? [SHELL, TALK] : [AUTH]));
  else if (signedIn) {
    wanted.push(SHELL);
    const page = SIGNED_IN_PAGES.find(([pattern]) => pattern.test(pathname));
    if (page) wanted.push(page[1]);
  }
  for (const { preload } of wanted) preload().catch(() => undefined);
}
