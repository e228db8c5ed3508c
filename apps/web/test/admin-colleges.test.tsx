import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { COLLEGE_ADMIN_MSG, COLLEGE_MSG } from '@campus/protocol';
import { admin, mockServer, renderApp, storeSessionFor, student } from './helpers';
import { list as documentsList, page as documentsPage } from './admin-kit';
import { approvePath, manual, manualPage, mergePath, option, page, renderAdmin } from './admin-colleges-kit';

const sunrise = manual('col_sunrise', 'Sunrise College', { students: 2 });
const lakeside = manual('col_lake', 'Lakeside Poly', {
  country: 'US',
  city: 'Austin',
  students: 1,
  createdAt: '2026-01-03T10:00:00.000Z',
});
const harvard = option('col_harvard', 'Harvard University', { city: 'Cambridge' });
const row = (name: string) => screen.getByRole('article', { name });
const heading = () => screen.getByRole('heading', { level: 1 });
const dialog = (name: string) => screen.getByRole('dialog', { name });

describe('admin colleges: the list', () => {
  it('shows each manual college oldest first: name, country, place, added, students', async () => {
    const { calls } = mockServer({ [manualPage()]: () => page([sunrise, lakeside]) });
    renderAdmin('/admin/colleges', admin);
    const first = await screen.findByRole('article', { name: 'Sunrise College' });
    expect(heading().textContent).toBe('Manual colleges (2)');
    const names = within(screen.getByRole('list', { name: 'Manual colleges' }))
      .getAllByRole('article')
      .map((a) => a.querySelector('h2')?.textContent);
    expect(names).toEqual(['Sunrise College', 'Lakeside Poly']);
    expect(first.textContent).toContain('India');
    expect(first.textContent).toContain('Not given');
    expect(first.textContent).toContain('2 students');
    expect(first.querySelector('time')?.getAttribute('dateTime')).toBe(sunrise.createdAt);
    expect(row('Lakeside Poly').textContent).toContain('United States');
    expect(row('Lakeside Poly').textContent).toContain('Austin');
    expect(row('Lakeside Poly').textContent).toContain('1 student');
    expect(calls[0]?.authorization).toBe(`Bearer token-${admin.id}`);
  });

  it("says 'No colleges waiting' when there are none", async () => {
    mockServer({ [manualPage()]: () => page([]) });
    renderAdmin('/admin/colleges', admin);
    expect(await screen.findByText(COLLEGE_ADMIN_MSG.empty)).toBeTruthy();
    expect(heading().textContent).toBe('Manual colleges (0)');
  });

  it('says why it failed and loads again on Retry', async () => {
    let fail = true;
    mockServer({ [manualPage()]: () => (fail ? { status: 500 } : page([sunrise])) });
    renderAdmin('/admin/colleges', admin);
    expect((await screen.findByRole('alert')).textContent).toContain(COLLEGE_ADMIN_MSG.loadFailed);
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('article', { name: 'Sunrise College' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("pages with 'Load more' until there is no next page", async () => {
    mockServer({
      [manualPage()]: () => page([sunrise], 'cursor-1', 2),
      [manualPage(20, 'cursor-1')]: () => page([lakeside], null, 2),
    });
    renderAdmin('/admin/colleges', admin);
    await screen.findByRole('article', { name: 'Sunrise College' });
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByRole('article', { name: 'Lakeside Poly' });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it("is linked from the documents page as 'Manual colleges (N)', and links back", async () => {
    mockServer({
      [documentsList('pending_verification')]: () => documentsPage([]),
      [manualPage(1)]: () => page([sunrise], 'more', 3),
      [manualPage()]: () => page([sunrise]),
    });
    renderAdmin('/admin/documents', admin);
    const link = await screen.findByRole('link', { name: 'Manual colleges (3)' });
    fireEvent.click(link);
    expect(screen.getByTestId('location').textContent).toBe('/admin/colleges');
    await screen.findByRole('article', { name: 'Sunrise College' });
    fireEvent.click(screen.getByRole('link', { name: /Document review/ }));
    expect(screen.getByTestId('location').textContent).toBe('/admin/documents');
  });
});

describe('admin colleges: approve', () => {
  it('approves an Indian college with its state and city in a dialog; the row leaves the list', async () => {
    const { calls } = mockServer({
      [manualPage()]: () => page([sunrise, lakeside]),
      [approvePath('col_sunrise')]: () => ({
        status: 200,
        body: { college: { ...sunrise, stateCode: 'MH', stateName: 'Maharashtra', city: 'Pune' } },
      }),
    });
    renderAdmin('/admin/colleges', admin);
    await screen.findByRole('article', { name: 'Sunrise College' });
    fireEvent.click(within(row('Sunrise College')).getByRole('button', { name: 'Approve' }));
    const box = dialog('Approve Sunrise College');
    const state = within(box).getByLabelText('State');
    expect(document.activeElement).toBe(state);
    expect(within(box).getByText(/listed but appears in no state’s list/)).toBeTruthy();
    fireEvent.change(state, { target: { value: 'MH' } });
    fireEvent.change(within(box).getByLabelText('City (optional)'), { target: { value: ' Pune ' } });
    fireEvent.click(within(box).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('status')).textContent).toBe('Approved Sunrise College.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('article', { name: 'Sunrise College' })).toBeNull();
    expect(heading().textContent).toBe('Manual colleges (1)');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ stateCode: 'MH', city: 'Pune' });
  });

  it('offers no state outside India, and shows a refusal inside the dialog', async () => {
    const { calls } = mockServer({
      [manualPage()]: () => page([lakeside]),
      [approvePath('col_lake')]: () => ({ status: 409, body: { error: COLLEGE_ADMIN_MSG.duplicate } }),
    });
    renderAdmin('/admin/colleges', admin);
    await screen.findByRole('article', { name: 'Lakeside Poly' });
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    const box = dialog('Approve Lakeside Poly');
    expect(within(box).queryByLabelText('State')).toBeNull();
    fireEvent.click(within(box).getByRole('button', { name: 'Approve' }));
    expect((await within(box).findByRole('alert')).textContent).toBe(COLLEGE_ADMIN_MSG.duplicate);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({});
    expect(row('Lakeside Poly')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes and reloads when another admin settled the college meanwhile (409)', async () => {
    let settled = false;
    const { calls } = mockServer({
      [manualPage()]: () => page(settled ? [] : [sunrise]),
      [approvePath('col_sunrise')]: () => {
        settled = true;
        return { status: 409, body: { error: COLLEGE_ADMIN_MSG.notManual } };
      },
    });
    renderAdmin('/admin/colleges', admin);
    await screen.findByRole('article', { name: 'Sunrise College' });
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    fireEvent.click(within(dialog('Approve Sunrise College')).getByRole('button', { name: 'Approve' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      `Sunrise College: ${COLLEGE_ADMIN_MSG.notManual}`,
    );
    expect(await screen.findByText(COLLEGE_ADMIN_MSG.empty)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'GET')).toHaveLength(2);
  });
});

describe('admin colleges: merge', () => {
  it("searches the country's listed colleges and merges into the one chosen", async () => {
    const { calls } = mockServer({
      [manualPage()]: () => page([lakeside]),
      'GET /colleges/US.json': () => ({
        status: 200,
        body: [harvard, option('col_mit', 'Massachusetts Institute of Technology')],
      }),
      [mergePath('col_lake')]: () => ({
        status: 200,
        body: { into: { id: harvard.id, name: harvard.name, country: 'US' }, students: 1 },
      }),
    });
    renderAdmin('/admin/colleges', admin);
    await screen.findByRole('article', { name: 'Lakeside Poly' });
    fireEvent.click(screen.getByRole('button', { name: 'Merge into…' }));
    const box = dialog('Merge Lakeside Poly');
    expect(within(box).getByText(/1 student will have the college you choose instead/)).toBeTruthy();
    const search = within(box).getByLabelText('Search listed colleges');
    expect(document.activeElement).toBe(search);
    // It starts from the typed name; nothing listed is called that.
    expect(await within(box).findByText(COLLEGE_MSG.noneFound)).toBeTruthy();
    expect(within(box).getByRole('button', { name: 'Merge' }).hasAttribute('disabled')).toBe(true);
    fireEvent.change(search, { target: { value: 'harv' } });
    const choice = within(box).getByRole('radio', { name: /Harvard University/ });
    expect(within(box).getByText('Cambridge')).toBeTruthy();
    fireEvent.click(choice);
    fireEvent.click(within(box).getByRole('button', { name: 'Merge into Harvard University' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Merged Lakeside Poly into Harvard University (1 student moved).',
    );
    expect(screen.queryByRole('article', { name: 'Lakeside Poly' })).toBeNull();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ into: 'col_harvard' });
  });

  it("asks for India's state before searching, then searches that state's list", async () => {
    const { calls } = mockServer({
      [manualPage()]: () => page([sunrise]),
      'GET /colleges/IN-MH.json': () => ({
        status: 200,
        body: [option('col_coep', 'College of Engineering, Pune', { country: 'IN', city: 'Pune' })],
      }),
    });
    renderAdmin('/admin/colleges', admin);
    await screen.findByRole('article', { name: 'Sunrise College' });
    fireEvent.click(screen.getByRole('button', { name: 'Merge into…' }));
    const box = dialog('Merge Sunrise College');
    const search = within(box).getByLabelText('Search listed colleges');
    expect(search.hasAttribute('disabled')).toBe(true);
    expect(search.getAttribute('placeholder')).toBe(COLLEGE_MSG.selectState);
    fireEvent.change(within(box).getByLabelText('State'), { target: { value: 'MH' } });
    fireEvent.change(search, { target: { value: 'pune' } });
    expect(await within(box).findByRole('radio', { name: /College of Engineering, Pune/ })).toBeTruthy();
    await waitFor(() => expect(calls.some((call) => call.path === '/colleges/IN-MH.json')).toBe(true));
  });
});

describe('admin colleges: the route', () => {
  it('sends a student from /admin/colleges to /talk', async () => {
    const { calls } = mockServer(storeSessionFor(student));
    renderApp('/admin/colleges');
    expect(await screen.findByRole('heading', { name: 'Talk', level: 1 })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/talk');
    expect(calls.some((call) => call.path.startsWith('/api/admin/'))).toBe(false);
  });

  it('opens the page for an admin', async () => {
    mockServer({ ...storeSessionFor(admin), [manualPage()]: () => page([sunrise]) });
    renderApp('/admin/colleges');
    expect(await screen.findByRole('heading', { name: 'Manual colleges (1)', level: 1 })).toBeTruthy();
  });
});
