import 'fake-indexeddb/auto';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { Confession, Platform } from '@campus/protocol';
import type { SyncClient, SyncClientOptions } from '@campus/sync';
import { AppProviders } from '../src/app/AppProviders';
import { AppRoutes } from '../src/app/AppRoutes';
import { SyncFactoryContext } from '../src/features/sync/sync-factory';
import { fakePlatform, student } from './helpers';
import { fakeSyncFactory } from './sync-provider-fake';

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

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/** The whole app at `path`; `factory` makes its sync clients (plain fakes unless a test needs the writes). */
export function renderConfessions(
  path = '/confessions',
  platform: Platform = fakePlatform(),
  factory?: (options: SyncClientOptions) => SyncClient,
) {
  const sync = fakeSyncFactory();
  render(
    <MemoryRouter initialEntries={[path]}>
      <SyncFactoryContext value={factory ?? sync.factory}>
        <AppProviders platform={platform}>
          <AppRoutes />
          <LocationProbe />
        </AppProviders>
      </SyncFactoryContext>
    </MemoryRouter>,
  );
  return sync;
}

export const feed = () => screen.getByRole('feed');
export const cards = () => within(feed()).queryAllByRole('article');
export const card = (author: string | RegExp) => within(feed()).getByRole('article', { name: author });
export const selfUser = student;
