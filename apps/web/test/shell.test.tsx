import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { STORAGE_KEYS } from '@campus/protocol';
import { mockServer, renderApp, storeSessionFor, student } from './helpers';

function withUnread(reply: { status: number; body?: unknown }) {
  return { ...storeSessionFor(student), 'GET /api/notifications/unread-count': () => reply };
}

const bell = () => screen.getByRole('button', { name: 'Notifications' });

describe('the notifications badge', () => {
  it.each([
    [5, '5'],
    [99, '99'],
    [100, '99+'],
    [1234, '99+'],
  ])('shows %i as %s', async (count, shown) => {
    mockServer(withUnread({ status: 200, body: { unreadCount: count } }));
    renderApp('/talk');
    await screen.findByText('Hi Alex');
    await waitFor(() => expect(bell().textContent).toBe(`${shown} unread`));
    expect(bell().getAttribute('aria-describedby')).toBeTruthy();
  });

  it('shows no badge for nothing unread, or when the count cannot be fetched', async () => {
    mockServer(withUnread({ status: 404, body: { error: 'Not found' } }));
    renderApp('/talk');
    await screen.findByText('Hi Alex');
    expect(bell().textContent).toBe('');
  });
});

describe('the shell', () => {
  it('greets the user, links the avatar to the profile and shows the profile facts', async () => {
    mockServer(storeSessionFor(student));
    renderApp('/talk');
    expect(await screen.findByRole('heading', { name: 'Hi Alex' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Talk' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Confession' }).getAttribute('aria-current')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open profile' }));
    expect(await screen.findByRole('heading', { name: 'Alex Rivera' })).toBeTruthy();
    expect(screen.getByText('Student ID Verified')).toBeTruthy();
    expect(screen.getByText('alex@campustalk.test')).toBeTruthy();
  });

  it('toggles and stores the theme', async () => {
    mockServer(storeSessionFor(student));
    localStorage.setItem(STORAGE_KEYS.theme, 'light');
    renderApp('/talk');
    fireEvent.click(await screen.findByRole('button', { name: 'Switch to dark theme' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('opens the small-screen menu, closes it on Escape and after a choice', async () => {
    mockServer(storeSessionFor(student));
    renderApp('/talk');
    const menu = await screen.findByRole('button', { name: 'Menu' });
    expect(menu.getAttribute('aria-controls')).toBe('app-sidebar');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById('app-sidebar')?.dataset.open).toBe('true');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(menu);
    fireEvent.click(screen.getByRole('link', { name: 'Confession' }));
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(await screen.findByRole('heading', { name: 'Confessions', level: 1 })).toBeTruthy();
  });
});
