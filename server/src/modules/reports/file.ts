import { randomUUID } from 'node:crypto';
import {
  REPORT,
  REPORT_MSG,
  reportEvidenceSchema,
  type ReportContext,
  type ReportEvidence,
  type ReportReason,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { Refusal } from '../../lib/refusal';
import type { Tx } from '../../realtime/transaction';
import { blockUser } from '../friends';
import { contextAllows, contextRef } from './contexts';
import { insertReport, reportStatements as q, userExists } from './repo';
import { applyAutoHold } from './restrictions';

const HOUR = 60 * 60_000;

export interface FileReportInput {
  reporterId: string;
  reportedId: string;
  context: ReportContext;
  reason: ReportReason;
  note?: string | null;
  /** A text room's last relayed messages (the random module keeps them); at most the last 50 are stored. */
  evidence?: ReportEvidence;
}

/** The stored evidence: the last REPORT.evidenceMessages messages, each text cut to its bound. */
function evidenceJson(evidence: ReportEvidence | undefined): string | null {
  if (!evidence) return null;
  const messages = evidence.messages.slice(-REPORT.evidenceMessages).map((m) => ({
    from: m.from,
    text: String(m.text).slice(0, REPORT.evidenceTextMax),
    at: m.at,
  }));
  const parsed = reportEvidenceSchema.safeParse({ messages });
  if (!parsed.success) throw new Refusal('invalid', 400);
  return JSON.stringify(parsed.data);
}

/**
 * Files a report in the caller's transaction and answers its id. Refused (thrown before anything is written,
 * as `Refusal`, so a REST route answers `{ error }` and a /ws frame `message_error`): reporting oneself;
 * more than REPORT.perHour reports an hour by the reporter (charged here, from the stored reports, so every
 * door shares it); an unknown user, or a chat, call or friend context the two do not share (404 like an
 * unknown user: the route probes nothing). A random room is vouched for by its caller, the random module.
 * Sets the automatic hold on random talk when enough distinct reporters filed within a day.
 */
export async function fileReport(tx: Tx, input: FileReportInput): Promise<string> {
  const { reporterId, reportedId, context } = input;
  if (reporterId === reportedId) throw new Refusal('invalid', 400, REPORT_MSG.self);
  const filed = await tx.first(q.filedSince, reporterId, new Date(tx.now - HOUR).toISOString());
  if (Number(filed?.n ?? 0) >= REPORT.perHour) throw new Refusal('rateLimited', 429, REPORT_MSG.tooMany);
  if (!(await userExists(tx, reportedId)) || !(await contextAllows(tx, reporterId, reportedId, context)))
    throw new Refusal('unknownUser', 404, REPORT_MSG.notFound);
  const note = input.note?.trim() ?? '';
  if (note.length > REPORT.noteMax) throw new Refusal('invalid', 400, REPORT_MSG.noteTooLong);
  const id = randomUUID();
  await insertReport(tx, {
    id,
    reporterId,
    reportedId,
    contextKind: context.kind,
    contextRef: contextRef(context),
    reason: input.reason,
    note: note || null,
    evidence: evidenceJson(input.evidence),
    createdAt: new Date(tx.now).toISOString(),
  });
  await applyAutoHold(tx, reportedId, 'open', id);
  return id;
}

/**
 * A report as the dialog sends it: filed, and unless the reporter unticked it, the reported user blocked in
 * the same transaction (the friends module's block: messages, calls, requests and presence stop at once).
 */
export async function reportUser(
  tx: Tx,
  deps: AppDeps,
  input: FileReportInput & { block: boolean },
): Promise<string> {
  const id = await fileReport(tx, input);
  if (input.block) await blockUser(tx, deps, input.reporterId, input.reportedId);
  return id;
}
