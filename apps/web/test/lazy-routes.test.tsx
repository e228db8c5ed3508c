import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { preloadRoute, SHELL } from '../src/app/lazy-routes';
import { mockServer, renderApp, storeSessionFor, student } from './helpers';

// The real lazy chunks here (test/setup.ts swaps in eager screens for the other screen tests).
vi.unmock('../src/app/lazy-routes');

describe('screens loaded on demand', () => {
  it('opens the login screen once its chunk has arrived', async () => {
    mockServer({});
    renderApp('/login');
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
  });

  it('opens Talk home inside the shell for a signed-in student', async () => {
    mockServer(storeSessionFor(student));
    renderApp('/talk');
    expect(await screen.findByRole('heading', { name: 'Talk', level: 1 })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Logout' }).length).toBeGreaterThan(0);
  });

  it('starts the shell’s download with the page’s, and once only', async () => {
    const spy = vi.spyOn(SHELL, 'preload');
    preloadRoute('/login', false);
    expect(spy).not.toHaveBeenCalled();
    preloadRoute('/chat/u-sam', true);
    expect(spy).toHaveBeenCalledTimes(1);
    const [first, second] = [SHELL.preload(), SHELL.preload()];
    expect(first).toBe(second);
    await first;
  });
});
