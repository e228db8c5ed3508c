import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { Confession, Platform } from '@campus/protocol';
import { AppProviders } from '../src/app/AppProviders';
import { AppRoutes } from '../src/app/AppRoutes';
import { SyncFactoryContext } from '../src/features/sync/sync-factory';
import { fakePlatform, student } from './helpers';
import { resetDatabase } from './sync-provider-fake';
import { scriptedServer, type ScriptedServer } from './confessions-outbox-kit';

/** Test data and a render of the whole app for the confessions screen tests. */
export const FEED = '/api/confessions/feed?page=';
export const collegeFeed = (page: number) => `GET ${FEED}${page}&limit=10&college=IIT+Bombay`;
export const allFeed = (page: number) => `GET ${FEED}${page}&limit=10`;
export const NICKNAME_SET = {
  'GET /api/confessions/nickname': () => ({ status: 200, body: { nickname: 'NightOwl' } }),
};
export const SLOW = { timeout: 5000 };

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

export function confession(id: string, overrides: Partial<Confession> = {}): Confession {
  return {
    id,
    content: `Confession ${id}`,
    emotionTag: '😊',
    college: 'IIT Bombay',
    createdAt: minutesAgo(5.5),
    imageUrl: null,
    nickname: 'Anon',
    reactions: { relatable: 0, funny: 0, feelYou: 0, shareWorthy: 0 },
    myReactions: [],
    commentCount: 0,
    comments: [],
    isMine: false,
    ...overrides,
  };
}

export function feedPage(confessions: Confession[], total = confessions.length, collegeTotal = total) {
  return { status: 200, body: { confessions, total, collegeTotal } };
}

export function many(prefix: string, count: number, overrides: Partial<Confession> = {}): Confession[] {
  return Array.from({ length: count }, (_, index) => confession(`${prefix}${index + 1}`, overrides));
}

const servers: ScriptedServer[] = [];

/**
 * After each test: the app unmounted, its sync clients stopped and their databases closed for good, then the
 * user's cache deleted. A write still in flight (a feed page's cache write) can then not land in the next
 * test's cache, which the feed renders from.
 */
export async function resetConfessions(): Promise<void> {
  cleanup();
  const clients = servers.splice(0).flatMap((server) => server.clients);
  await Promise.all(clients.map((client) => client.stop()));
  clients.forEach((client) => client.db.close({ disableAutoOpen: true }));
  await resetDatabase(student.id);
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/**
 * The whole app at `path`, with the real sync client on a scripted `/ws` (`server`: what reached it, acks,
 * refusals and live changes).
 */
export function renderConfessions(
  path = '/confessions',
  platform: Platform = fakePlatform(),
  server: ScriptedServer = scriptedServer(),
): ScriptedServer {
  servers.push(server);
  render(
    <MemoryRouter initialEntries={[path]}>
      <SyncFactoryContext value={server.factory}>
        <AppProviders platform={platform}>
          <AppRoutes />
          <LocationProbe />
        </AppProviders>
      </SyncFactoryContext>
    </MemoryRouter>,
  );
  return server;
}

export const feed = () => screen.getByRole('feed');
export const cards = () => within(feed()).queryAllByRole('article');
export const card = (author: string | RegExp) => within(feed()).getByRole('article', { name: author });
export const selfUser = student;
