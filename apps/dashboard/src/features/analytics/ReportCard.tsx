import { lazy, Suspense, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Card, EmptyState, Spinner } from '@grove/web-ui';
import { downloadCsv } from './csv';

/** A report's numbers (its table scrolls sideways, by keyboard too, when the card is narrow): the table shown to everyone (and screen readers) and the CSV download. */
export interface ReportTable {
  caption: string;
  head: string[];
  rows: (string | number)[][];
  /** The same rows for the CSV file (raw numbers: cents, fractions), when they differ. */
  csvRows?: (string | number)[][];
}

/** The charts load with the screen's first chart, not with the dashboard. */
export const LazyLineChart = lazy(() =>
  import('./LineChart').then((module) => ({ default: module.LineChart })),
);

/**
 * One card of the analytics screen: its title, then a spinner while loading, the error with
 * 'Try again', the empty message that says what to do, or the chart with its data table and a
 * CSV download (`<file>.csv`).
 */
export function ReportCard<T>({
  title,
  file,
  query,
  isEmpty,
  empty,
  table,
  chart,
}: {
  title: string;
  file: string;
  query: UseQueryResult<T>;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  table: (data: T) => ReportTable;
  chart?: (data: T) => ReactNode;
}) {
  const headingId = `analytics-${file}`;
  let body: ReactNode;
  if (query.isPending) body = <Spinner label={`Loading ${title.toLowerCase()}…`} />;
  else if (query.isError)
    body = (
      <>
        <Alert>{query.error.message}</Alert>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </>
    );
  else if (isEmpty(query.data)) body = <EmptyState message={empty} />;
  else {
    const data = query.data;
    const numbers = table(data);
    body = (
      <>
        {chart && (
          <Suspense fallback={<Spinner label="Drawing the chart…" />}>{chart(data)}</Suspense>
        )}
        <div className="g-table-wrap" tabIndex={0} role="region" aria-label={numbers.caption}>
          <table className="g-table dash-report-table">
            <caption className="dash-report-table__caption">{numbers.caption}</caption>
            <thead>
              <tr>
                {numbers.head.map((cell) => (
                  <th scope="col" key={cell}>
                    {cell}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {numbers.rows.map((row, index) => (
                <tr key={index}>
                  {row.map((cell, column) =>
                    column === 0 ? (
                      <th scope="row" key={column}>
                        {cell}
                      </th>
                    ) : (
                      <td key={column}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={() =>
            void downloadCsv(`${file}.csv`, [numbers.head, ...(numbers.csvRows ?? numbers.rows)])
          }
        >
          Download CSV
        </Button>
      </>
    );
  }
  return (
    <Card className="dash-report" aria-labelledby={headingId}>
      <h2 className="dash-report__title" id={headingId}>
        {title}
      </h2>
      {body}
    </Card>
  );
}
