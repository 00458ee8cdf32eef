import type { ReactNode } from 'react';
import './empty-state.css';

/** What a list shows when it has nothing (or could not load): a message and an optional action. */
export function EmptyState({ message, action }: { message: ReactNode; action?: ReactNode }) {
  return (
    <div className="g-empty">
      <svg className="g-empty__art" viewBox="0 0 64 64" aria-hidden="true">
        <circle cx="32" cy="24" r="16" fill="#cfe8d6" />
        <rect x="30" y="30" width="4" height="24" rx="2" fill="#2f7d52" />
        <path d="M32 42 L22 34" stroke="#2f7d52" strokeWidth="3" strokeLinecap="round" />
      </svg>
      <p className="g-empty__message">{message}</p>
      {action}
    </div>
  );
}
