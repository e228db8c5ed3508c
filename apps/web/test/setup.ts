import { vi } from 'vitest';
import { configure } from '@testing-library/react';

/**
 * `findBy…`/`waitFor` give up after 1 s by default. The whole suite runs its projects in parallel (the
 * server and fault-injection suites keep every core busy), and a screen that settles in 50 ms alone can take
 * over a second then: a wait that long is load, not a bug, so the tests wait up to 5 s.
 */
configure({ asyncUtilTimeout: 5000 });

// Screens load as lazy chunks in the app; the screen tests render them eagerly (see eager-routes.ts).
vi.mock('../src/app/lazy-routes', () => import('./eager-routes'));
