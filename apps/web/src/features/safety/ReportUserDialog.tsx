import type { RestReportContext } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { submitReport } from './report-api';
import { ReportDialog } from './ReportDialog';

/**
 * The report dialog for a chat, a call or a friend row: sent over REST. A block it asks for comes back to
 * every device of the reporter as the server's `block_changed`, like any block.
 */
export function ReportUserDialog({
  name,
  context,
  onClose,
}: {
  name: string;
  context: RestReportContext;
  onClose(): void;
}) {
  const api = useApi();
  return (
    <ReportDialog
      name={name}
      onClose={onClose}
      onSubmit={async (input) => {
        await submitReport(api, context, input);
      }}
    />
  );
}
