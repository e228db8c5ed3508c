import { useId, useState, type ReactNode } from 'react';
import {
  BRANCH_OPTIONS,
  COUNTRY_OPTIONS,
  EMPTY_FILTERS,
  INTEREST_OPTIONS,
  SKILL_LEVELS,
  hasAnyFilter,
  type FilterGroup,
  type FocusedFilters,
} from '@campus/protocol';
import { Dialog } from '../../../components/Dialog';
import { Spinner } from '../../../components/Spinner';
import { collegeName } from '../../profile/completion';
import { useSignedInUser } from '../../session/session-context';
import { useRandomCounts } from './useRandomCounts';

/** Each group's title and the hint shown while nothing in it is chosen. */
const GROUPS: Record<FilterGroup, { title: string; hint: string }> = {
  interests: { title: 'Interests', hint: 'Pick topics you would enjoy talking about.' },
  college: { title: 'College', hint: 'Any college. Choose yours, or add another by name.' },
  skillLevel: { title: 'Skill Level', hint: 'Any level, from Beginner to Advanced.' },
  country: { title: 'Country', hint: 'Students from any country.' },
  branch: { title: 'Branch/Major', hint: 'Any branch or major.' },
};

/** At most this many colleges in the filter (the wire's limit). */
const MAX_COLLEGES = 20;

function toggle(list: readonly string[], value: string): string[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

function ChipGroup({
  group,
  options,
  chosen,
  onToggle,
  children,
}: {
  group: FilterGroup;
  options: readonly string[];
  chosen: readonly string[];
  onToggle(value: string): void;
  children?: ReactNode;
}) {
  const titleId = useId();
  const hintId = useId();
  const { title, hint } = GROUPS[group];
  return (
    <fieldset className="filter-group" aria-labelledby={titleId} data-testid={`filter-group-${group}`}>
      <legend className="filter-group__title" id={titleId}>
        {title}
        {chosen.length > 0 ? <span className="filter-group__count"> · {chosen.length} selected</span> : null}
      </legend>
      {chosen.length === 0 ? (
        <p className="filter-group__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <div className="chips">
        {options.map((option) => (
          <button
            key={option}
            type="button"
            className="chip"
            aria-pressed={chosen.includes(option)}
            onClick={() => onToggle(option)}
          >
            {option}
          </button>
        ))}
      </div>
      {children}
    </fieldset>
  );
}

/** The college chips: the student's own college, any typed in, and 'Other'; plus a field to add one. */
function useCollegeOptions(chosen: readonly string[]) {
  const own = collegeName(useSignedInUser().college);
  const [added, setAdded] = useState<string[]>([]);
  const options = [...new Set([own, ...added, ...chosen, 'Other'].filter(Boolean))];
  return { options, add: (name: string) => setAdded((list) => [...list, name]) };
}

/**
 * The filter dialog 'Focused Talk': five chip groups, the real estimate of matching students online now
 * (GET /api/random/counts, 300 ms after the last change), Reset all filters, Cancel and Start Focused Talk
 * (which needs one filter at least).
 */
export function FilterDialog({
  initial,
  onCancel,
  onStart,
}: {
  initial: FocusedFilters | null;
  onCancel(): void;
  onStart(filters: FocusedFilters): void;
}) {
  const [filters, setFilters] = useState<FocusedFilters>(initial ?? EMPTY_FILTERS);
  const [collegeDraft, setCollegeDraft] = useState('');
  const colleges = useCollegeOptions(filters.college);
  const any = hasAnyFilter(filters);
  const { counts, loading, failed } = useRandomCounts(filters, { enabled: any });
  const collegeInputId = useId();

  const flip = (group: FilterGroup) => (value: string) =>
    setFilters((current) => ({ ...current, [group]: toggle(current[group], value) }));

  const addCollege = () => {
    const name = collegeDraft.replace(/\s+/g, ' ').trim();
    if (!name || name.length > 200) return;
    colleges.add(name);
    setFilters((current) =>
      current.college.includes(name) || current.college.length >= MAX_COLLEGES
        ? current
        : { ...current, college: [...current.college, name] },
    );
    setCollegeDraft('');
  };

  return (
    <Dialog title="Focused Talk" onClose={onCancel}>
      <p className="modal__text">Only who you choose: pick what matters to you.</p>
      <div className="filter-groups">
        <ChipGroup
          group="interests"
          options={INTEREST_OPTIONS}
          chosen={filters.interests}
          onToggle={flip('interests')}
        />
        <ChipGroup
          group="college"
          options={colleges.options}
          chosen={filters.college}
          onToggle={flip('college')}
        >
          <div className="filter-college">
            <label className="visually-hidden" htmlFor={collegeInputId}>
              Add a college by name
            </label>
            <input
              id={collegeInputId}
              className="field__input"
              value={collegeDraft}
              maxLength={200}
              placeholder="Add a college by name"
              onChange={(event) => setCollegeDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  addCollege();
                }
              }}
            />
            <button type="button" className="button button--secondary" onClick={addCollege}>
              Add
            </button>
          </div>
        </ChipGroup>
        <ChipGroup
          group="skillLevel"
          options={SKILL_LEVELS}
          chosen={filters.skillLevel}
          onToggle={flip('skillLevel')}
        />
        <ChipGroup
          group="country"
          options={COUNTRY_OPTIONS}
          chosen={filters.country}
          onToggle={flip('country')}
        />
        <ChipGroup
          group="branch"
          options={BRANCH_OPTIONS}
          chosen={filters.branch}
          onToggle={flip('branch')}
        />
      </div>

      <div className="filter-estimate" role="status" data-testid="filter-estimate">
        <span>Estimated matches available</span>
        <strong>
          {!any ? (
            'All students'
          ) : loading ? (
            <>
              <Spinner /> Counting…
            </>
          ) : failed || !counts ? (
            'Not available right now'
          ) : (
            `${counts.total} online now`
          )}
        </strong>
      </div>

      <div className="modal__actions filter-actions">
        <button
          type="button"
          className="button button--ghost"
          onClick={() => setFilters(EMPTY_FILTERS)}
          disabled={!any}
        >
          Reset all filters
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => onStart(filters)}
          disabled={!any}
          data-testid="filter-start"
        >
          Start Focused Talk
        </button>
      </div>
    </Dialog>
  );
}
