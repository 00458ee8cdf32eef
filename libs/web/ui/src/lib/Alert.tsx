import type { ReactNode } from 'react';
import './alert.css';

/** A message box; `error` and `success` are announced at once (role="alert" / "status"). */
export function Alert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'success' | 'info';
  children: ReactNode;
}) {
  return (
    <div className={`g-alert g-alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
