import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { COLLEGE_MSG, type CollegeOption } from '@campus/protocol';
import { Spinner } from '../../../components/Spinner';
import type { CollegeList } from './useCollegeList';

/** 'Mumbai, Maharashtra': where a college is, from what the list says. */
export function placeOf(college: { city?: string; stateName?: string }): string {
  return [college.city, college.stateName].filter(Boolean).join(', ');
}

interface Props {
  list: CollegeList;
  /** False for India until a state is chosen. */
  enabled: boolean;
  onPick(option: CollegeOption): void;
  /** 'Add manually', with what was typed. */
  onManual(query: string): void;
}

/**
 * The search box and its suggestions: an ARIA combobox. Arrow keys move through the (at most 10)
 * suggestions, Enter picks, Escape closes; focus stays in the box (aria-activedescendant).
 */
export function CollegeSearch({ list, enabled, onPick, onManual }: Props) {
  const inputId = useId();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const results = useMemo(() => list.index.search(query), [list.index, query]);
  const searching = query.trim() !== '';
  const expanded = enabled && open && searching && results.length > 0;
  const optionId = (index: number) => `${listId}-${index}`;

  const pick = (option: CollegeOption) => {
    onPick(option);
    setQuery('');
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = results.length - 1;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (results.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const down = event.key === 'ArrowDown';
      setActive((current) =>
        !expanded || current < 0
          ? down
            ? 0
            : last
          : down
            ? Math.min(current + 1, last)
            : Math.max(current - 1, 0),
      );
    } else if (event.key === 'Enter') {
      // Never submits the profile form from here.
      event.preventDefault();
      const option = expanded && active >= 0 ? results[active] : undefined;
      if (option) pick(option);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="college-search">
      <label className="field__label" htmlFor={inputId}>
        Search colleges
      </label>
      <input
        id={inputId}
        className="field__input"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={enabled ? 'College name, city or state' : COLLEGE_MSG.selectState}
        disabled={!enabled}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        onFocus={() => setOpen(true)}
      />
      <ul
        className="college-search__list"
        id={listId}
        role="listbox"
        aria-label="College suggestions"
        hidden={!expanded}
      >
        {expanded
          ? results.map((option, index) => (
              <li
                key={option.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className="college-search__option"
                // Keeps focus in the box, so the click lands before the blur closes the list.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(option)}
              >
                <span className="college-search__name">{option.name}</span>
                {placeOf(option) ? <span className="college-search__place">{placeOf(option)}</span> : null}
              </li>
            ))
          : null}
      </ul>
      {enabled && searching && list.status === 'loading' ? (
        <p className="college-search__note" role="status">
          <Spinner />
          <span>Loading colleges…</span>
        </p>
      ) : null}
      {enabled && searching && list.status === 'ready' && results.length === 0 ? (
        <p className="college-search__note">
          <span>{COLLEGE_MSG.noneFound}</span>{' '}
          <button type="button" className="link-button" onClick={() => onManual(query)}>
            Add manually
          </button>
        </p>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {expanded ? `${results.length} ${results.length === 1 ? 'college' : 'colleges'} found` : ''}
      </p>
    </div>
  );
}
