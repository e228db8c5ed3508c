import type { AdminDocumentItem, DocumentHistoryEntry, OcrResult, ServerCheck } from '@campus/protocol';
import { FIELD_LABELS } from '../upload/DocumentPreview';
import { collegeLabel, fullName } from './admin-api';

type Item = AdminDocumentItem;

/** What the profile says for each field of the card (a profile has no student number). */
function profileValues(user: Item['user']): OcrResult {
  return {
    nama: fullName(user),
    nim: '',
    kampus: collegeLabel(user.college) ?? '',
    jurusan: user.course ?? '',
  };
}

const VERDICTS: Record<ServerCheck['verdict'], string> = {
  ok: 'Passed every check',
  failed: 'Some checks failed',
  skipped: 'Not checked (a PDF, or a manual review was asked for)',
  error: 'Text recognition failed on the server',
};

function cell(value: string | undefined) {
  return value?.trim() ? value : <span className="admin-facts__missing">—</span>;
}

/** The recognised fields beside the profile: the server's own reading, and what the student's page read. */
export function FieldsComparison({ item }: { item: Item }) {
  const profile = profileValues(item.user);
  const server = item.document?.check.recognized ?? null;
  const client = item.document?.clientRecognized ?? null;
  return (
    <table className="admin-facts">
      <caption className="visually-hidden">Recognised fields beside the profile</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Profile</th>
          <th scope="col">Server&apos;s reading</th>
          <th scope="col">Student&apos;s reading</th>
        </tr>
      </thead>
      <tbody>
        {FIELD_LABELS.map(([key, label]) => (
          <tr key={key}>
            <th scope="row">{label}</th>
            <td>{cell(profile[key])}</td>
            <td>{cell(server?.[key])}</td>
            <td>{cell(client?.[key])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The server's verdict on its own reading, with each problem it found. */
export function ServerVerdict({ check, manual }: { check: ServerCheck; manual: boolean }) {
  return (
    <div className={`admin-verdict admin-verdict--${check.verdict}`}>
      <p>
        <strong>Server check: </strong>
        {VERDICTS[check.verdict]}
        {manual ? ' · the student asked for a manual review' : ''}
      </p>
      {check.problems.length > 0 ? (
        <ul className="admin-verdict__problems" aria-label="Problems the server found">
          {check.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const ACTIONS: Record<DocumentHistoryEntry['action'], string> = {
  submit: 'submitted a document',
  verify: 'verified the document',
  reject: 'rejected the document',
  exempt: 'exempted the account',
};

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** Who did what and when, with the reason of each rejection. */
export function DecisionHistory({ history }: { history: DocumentHistoryEntry[] }) {
  if (history.length === 0) return <p className="admin-facts__missing">No history yet.</p>;
  return (
    <ol className="admin-history" aria-label="History">
      {history.map((entry) => (
        <li key={entry.id}>
          <time dateTime={entry.at}>{formatTime(entry.at)}</time>
          {' · '}
          <span>
            {fullName(entry.by)} {ACTIONS[entry.action]}
          </span>
          {entry.reason ? <span className="admin-history__reason"> — “{entry.reason}”</span> : null}
        </li>
      ))}
    </ol>
  );
}
