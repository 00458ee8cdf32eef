import type { ReactNode } from 'react';
import './page-header.css';

/** A screen's title, its one-line description and actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="g-page-header">
      <div>
        <h1 className="g-page-header__title">{title}</h1>
        {description && <p className="g-page-header__description">{description}</p>}
      </div>
      {actions && <div className="g-page-header__actions">{actions}</div>}
    </header>
  );
}
