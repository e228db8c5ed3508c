import { useId, useState } from 'react';
import type { ApproveCollegeRequest, CollegeOption, ManualCollegeItem } from '@campus/protocol';
import { useApi } from '../../../lib/ApiContext';
import { formatTime } from '../ReviewFacts';
import { ApproveCollegeDialog } from './ApproveCollegeDialog';
import {
  actionFailure,
  approveCollege,
  countryName,
  mergeCollege,
  placeLabel,
  studentsLabel,
} from './colleges-api';
import { MergeCollegeDialog } from './MergeCollegeDialog';

interface Props {
  college: ManualCollegeItem;
  /** Approved or merged: the page says so and drops the row. */
  onDone(collegeId: string, summary: string): void;
  /** Refused because another admin handled it meanwhile: the page says why and reloads. */
  onGone(message: string): void;
}

/** One college typed in by students: where, since when, how many use it, and the two ways to settle it. */
export function ManualCollegeRow({ college, onDone, onGone }: Props) {
  const api = useApi();
  const nameId = useId();
  const [dialog, setDialog] = useState<'approve' | 'merge' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const place = placeLabel(college);

  async function run(action: () => Promise<string>) {
    setBusy(true);
    setError(null);
    try {
      const summary = await action();
      setDialog(null);
      onDone(college.id, summary);
    } catch (failure) {
      const { message, gone } = actionFailure(failure);
      if (gone) {
        setDialog(null);
        onGone(`${college.name}: ${message}`);
      } else setError(message);
    } finally {
      setBusy(false);
    }
  }

  const approve = (body: ApproveCollegeRequest) =>
    run(async () => {
      await approveCollege(api, college.id, body);
      return `Approved ${college.name}.`;
    });
  const merge = (target: CollegeOption) =>
    run(async () => {
      const result = await mergeCollege(api, college.id, target.id);
      return `Merged ${college.name} into ${result.into.name} (${studentsLabel(result.students)} moved).`;
    });
  const open = (which: 'approve' | 'merge') => {
    setError(null);
    setDialog(which);
  };

  return (
    <article className="admin-item admin-college" aria-labelledby={nameId}>
      <h2 className="admin-item__name" id={nameId}>
        {college.name}
      </h2>
      <dl className="admin-college__facts">
        <div>
          <dt>Country</dt>
          <dd>{countryName(college.country)}</dd>
        </div>
        <div>
          <dt>City / state</dt>
          <dd>{place ?? <span className="admin-facts__missing">Not given</span>}</dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>
            <time dateTime={college.createdAt}>{formatTime(college.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Used by</dt>
          <dd>{studentsLabel(college.students)}</dd>
        </div>
      </dl>
      <div className="admin-item__actions">
        <button type="button" className="button button--primary" onClick={() => open('approve')}>
          Approve
        </button>
        <button type="button" className="button button--secondary" onClick={() => open('merge')}>
          Merge into…
        </button>
      </div>
      {dialog === 'approve' ? (
        <ApproveCollegeDialog
          college={college}
          busy={busy}
          error={error}
          onApprove={(body) => void approve(body)}
          onCancel={() => setDialog(null)}
        />
      ) : null}
      {dialog === 'merge' ? (
        <MergeCollegeDialog
          college={college}
          busy={busy}
          error={error}
          onMerge={(target) => void merge(target)}
          onCancel={() => setDialog(null)}
        />
      ) : null}
    </article>
  );
}
