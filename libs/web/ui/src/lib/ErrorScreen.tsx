import type { ReactNode } from 'react';
import { MESSAGES } from '@grove/contracts';
import './centered-screen.css';

/** Full-screen error (docs/product.md#screens 'Unexpected Application Error!') with an optional action. */
export function ErrorScreen({
  title = MESSAGES.routerError,
  detail,
  action,
}: {
  title?: string;
  detail?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <main className="g-centered-screen" role="alert">
      <h1 className="g-centered-screen__title">{title}</h1>
      {detail && <p className="g-muted">{detail}</p>}
      {action}
    </main>
  );
}
