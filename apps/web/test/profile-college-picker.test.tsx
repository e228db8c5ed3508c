import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import {
  COLLEGE_MSG,
  COLLEGE_COUNTRIES,
  INDIA_STATES,
  type CollegeOption,
  type User,
} from '@campus/protocol';
import { CollegePicker } from '../src/features/profile/college-picker/CollegePicker';
import { indexColleges } from '../src/features/profile/college-picker/college-index';
import type { CollegeChoice } from '../src/features/profile/profile-body';
import { mockServer, storeSessionFor, student } from './helpers';
import { MH_COLLEGES, college, listRoute, renderWithApi, type Routes } from './profile-kit';

afterEach(() => vi.restoreAllMocks());

/** The picker as the editor holds it: the choice in state, every change recorded. */
function Harness({
  current = null,
  suggestion = null,
  onChange,
}: {
  current?: User['college'];
  suggestion?: CollegeOption | null;
  onChange(choice: CollegeChoice | null): void;
}) {
  const [value, setValue] = useState<CollegeChoice | null>(null);
  return (
    <CollegePicker
      value={value}
      current={current}
      suggestion={suggestion}
      onChange={(choice) => {
        setValue(choice);
        onChange(choice);
      }}
    />
  );
}

function setup(routes: Routes, props: Partial<Parameters<typeof Harness>[0]> = {}) {
  const server = mockServer({ ...storeSessionFor(student), ...routes });
  const onChange = vi.fn<(choice: CollegeChoice | null) => void>();
  renderWithApi(<Harness onChange={onChange} {...props} />);
  return { ...server, onChange };
}

const search = () => screen.getByRole('combobox', { name: 'Search colleges' }) as HTMLInputElement;
const typeSearch = (value: string) => fireEvent.change(search(), { target: { value } });
const suggestions = () => {
  const list = screen.queryByRole('listbox', { name: 'College suggestions' });
  return list ? within(list).getAllByRole('option') : [];
};
const optionNames = () => suggestions().map((o) => o.querySelector('.college-search__name')?.textContent);
const chooseState = (code: string) =>
  fireEvent.change(screen.getByLabelText('State'), { target: { value: code } });

describe('the college picker', () => {
  it('offers the 10 countries with India first and chosen, and asks for a state before searching', () => {
    const { calls } = setup({});
    const country = screen.getByLabelText('Country') as HTMLSelectElement;
    expect(Array.from(country.options).map((o) => o.value)).toEqual(COLLEGE_COUNTRIES.map((c) => c.code));
    expect(country.value).toBe('IN');
    const state = screen.getByLabelText('State') as HTMLSelectElement;
    expect(state.options).toHaveLength(INDIA_STATES.length + 1);
    expect(screen.getByText(COLLEGE_MSG.selectState, { selector: 'p' })).toBeTruthy();
    expect(search().disabled).toBe(true);
    expect(calls.filter((c) => c.path.startsWith('/colleges/'))).toHaveLength(0);
  });

  it("loads the state's list and finds colleges by name, city or state name", async () => {
    const { calls } = setup(listRoute('/colleges/IN-MH.json', MH_COLLEGES));
    chooseState('MH');
    expect(screen.queryByText(COLLEGE_MSG.selectState, { selector: 'p' })).toBeNull();
    await waitFor(() => expect(search().disabled).toBe(false));
    typeSearch('pune');
    await waitFor(() => expect(optionNames()).toEqual(['College of Engineering Pune', 'Fergusson College']));
    typeSearch('MUMBAI');
    expect(optionNames()).toEqual([
      'Indian Institute of Technology Bombay',
      'Sardar Patel College of Engineering',
    ]);
    typeSearch('maharashtra');
    expect(optionNames()).toHaveLength(4);
    // Every word counts, anywhere: name and city together.
    typeSearch('engineering pune');
    expect(optionNames()).toEqual(['College of Engineering Pune']);
    expect(calls.filter((c) => c.path === '/colleges/IN-MH.json')).toHaveLength(1);
  });

  it('shows at most 10 suggestions, names starting with the words first', async () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      college(`us-${i}`, `Lakeside College ${String(i).padStart(2, '0')}`, 'Springfield', 'Illinois', 'US'),
    );
    setup(
      listRoute('/colleges/US.json', [
        college('us-x', 'A College on Lakeside', 'Austin', 'Texas', 'US'),
        ...many,
      ]),
    );
    fireEvent.change(screen.getByLabelText('Country'), { target: { value: 'US' } });
    expect(screen.queryByLabelText('State')).toBeNull();
    await waitFor(() => expect(search().disabled).toBe(false));
    typeSearch('lakeside');
    await waitFor(() => expect(optionNames()).toHaveLength(10));
    expect(optionNames()[0]).toBe('Lakeside College 00');
    typeSearch('illinois');
    expect(optionNames()).toHaveLength(10);
  });

  it('moves through the suggestions with the arrow keys and picks with Enter', async () => {
    const { onChange } = setup(listRoute('/colleges/IN-MH.json', MH_COLLEGES));
    chooseState('MH');
    await waitFor(() => expect(search().disabled).toBe(false));
    typeSearch('college');
    await waitFor(() => expect(optionNames()).toHaveLength(3));
    expect(search().getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(search(), { key: 'ArrowDown' });
    fireEvent.keyDown(search(), { key: 'ArrowDown' });
    const active = suggestions()[1]!;
    expect(search().getAttribute('aria-activedescendant')).toBe(active.id);
    expect(active.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(search(), { key: 'ArrowUp' });
    fireEvent.keyDown(search(), { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith({ kind: 'option', option: MH_COLLEGES[1] });
    expect(suggestions()).toHaveLength(0);
    expect(search().value).toBe('');
    expect(screen.getByText('College of Engineering Pune')).toBeTruthy();
    expect(screen.getByText('Pune, Maharashtra')).toBeTruthy();
  });

  it("says 'No colleges found.' with 'Add manually', which switches to a name field", async () => {
    const { onChange } = setup(listRoute('/colleges/IN-MH.json', MH_COLLEGES));
    chooseState('MH');
    await waitFor(() => expect(search().disabled).toBe(false));
    typeSearch('Nowhere Academy');
    expect(screen.getByText(COLLEGE_MSG.noneFound)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add manually' }));
    expect(onChange).toHaveBeenLastCalledWith({ kind: 'manual', name: 'Nowhere Academy' });
    expect((screen.getByLabelText('College name') as HTMLInputElement).value).toBe('Nowhere Academy');
    fireEvent.click(screen.getByRole('button', { name: 'Search the list instead' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(search()).toBeTruthy();
  });

  it('treats a list that fails to load as empty, and tries it again later', async () => {
    let fail = true;
    const { calls } = setup({
      'GET /colleges/IN-DL.json': () =>
        fail
          ? { status: 500 }
          : { status: 200, body: [college('dl-1', 'Delhi University', 'New Delhi', 'Delhi')] },
      ...listRoute('/colleges/IN-GA.json', []),
    });
    chooseState('DL');
    await waitFor(() => expect(search().disabled).toBe(false));
    typeSearch('delhi');
    expect(await screen.findByText(COLLEGE_MSG.noneFound)).toBeTruthy();
    fail = false;
    chooseState('GA');
    await waitFor(() => expect(calls.some((c) => c.path === '/colleges/IN-GA.json')).toBe(true));
    chooseState('DL');
    await waitFor(() => expect(search().disabled).toBe(false));
    typeSearch('delhi');
    await waitFor(() => expect(optionNames()).toEqual(['Delhi University']));
    expect(calls.filter((c) => c.path === '/colleges/IN-DL.json')).toHaveLength(2);
  });

  it('starts at the stored college’s country and state, and offers the e-mail suggestion', () => {
    const stored = {
      id: 'us-1',
      name: 'Lakeside College',
      country: 'US',
      city: 'Austin',
      stateName: 'Texas',
    };
    const suggestion = college('in-iitb', 'Indian Institute of Technology Bombay', 'Mumbai', 'Maharashtra');
    const { onChange } = setup(listRoute('/colleges/US.json', []), { current: stored, suggestion });
    expect((screen.getByLabelText('Country') as HTMLSelectElement).value).toBe('US');
    expect(screen.getByText('Lakeside College')).toBeTruthy();
    expect(screen.getByText('Suggested from your e-mail')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use this college' }));
    expect(onChange).toHaveBeenLastCalledWith({ kind: 'option', option: suggestion });
    expect(screen.queryByText('Suggested from your e-mail')).toBeNull();
  });
});

describe('the college index', () => {
  it('ignores case and accents', () => {
    const index = indexColleges([college('fr-1', 'Université Paris Cité', 'Paris', 'Île-de-France', 'FR')]);
    expect(index.search('universite').map((c) => c.id)).toEqual(['fr-1']);
    expect(index.search('ILE-DE')).toHaveLength(1);
    expect(index.search('   ')).toEqual([]);
  });

  it('searches a list as large as the biggest country’s quickly', () => {
    const words = ['State', 'Technical', 'Community', 'Institute', 'Arts', 'Medical', 'Valley', 'North'];
    const big = Array.from({ length: 8000 }, (_, i) =>
      college(
        `c-${i}`,
        `${words[i % 8]} ${words[(i * 7) % 8]} College ${i}`,
        `City ${i % 300}`,
        `State ${i % 50}`,
        'US',
      ),
    );
    const started = performance.now();
    const index = indexColleges(big);
    for (const query of [
      's',
      'st',
      'sta',
      'stat',
      'state',
      'state t',
      'state te',
      'city 12',
      'zzz',
      'college 7999',
    ])
      index.search(query);
    // Building the index and ten keystrokes: milliseconds in practice; the bound only catches a slow path.
    expect(performance.now() - started).toBeLessThan(1500);
    expect(index.search('college 7999').map((c) => c.id)).toEqual(['c-7999']);
  });
});
