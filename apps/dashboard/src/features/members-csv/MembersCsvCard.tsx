import { useState } from 'react';
import { Alert, Button, Card } from '@grove/web-ui';
import { useExportMembers } from './api/members-csv';
import { ImportDialog } from './ImportDialog';
import './members-csv.css';

/**
 * The Branches screen's spreadsheet tools (issue 14 part 5): 'Export' downloads every member as
 * CSV; 'Import' opens the Import dialog (mapping, dry run, progress).
 */
export function MembersCsvCard() {
  const exporting = useExportMembers();
  const [importing, setImporting] = useState(false);
  return (
    <Card className="dash-csv">
      <h2>Spreadsheets</h2>
      <p className="g-muted">Export your members as CSV, or import them from one.</p>
      <div className="dash-actions">
        <Button
          size="sm"
          variant="secondary"
          busy={exporting.isPending}
          onClick={() => exporting.mutate()}
        >
          Export
        </Button>
        <Button size="sm" variant="secondary" onClick={() => setImporting(true)}>
          Import
        </Button>
      </div>
      {exporting.isError && <Alert>{exporting.error.message}</Alert>}
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
    </Card>
  );
}
