// Statement order is stylesheet order: each component imports its own CSS, and the bundle keeps
// them in the order of this file (the order of the one stylesheet they were split from, which
// libs/web/ui/styles.cjs repeats for the pages the API renders).
import './lib/base.css';
export * from './lib/Button';
export * from './lib/TextField';
export * from './lib/TextArea';
export * from './lib/SelectField';
export * from './lib/Modal';
export * from './lib/Spinner';
export * from './lib/Alert';
export * from './lib/EmptyState';
export * from './lib/Card';
export * from './lib/PageHeader';
// Tables have no component of their own.
import './lib/table.css';
export * from './lib/Pagination';
export * from './lib/Logo';
export * from './lib/PublicTopBar';
export * from './lib/NotFoundPage';
export * from './lib/ErrorScreen';
// Tables that stack into cards when narrow.
import './lib/table-stack.css';
export * from './lib/useTimedMessage';
export * from './lib/RecoveryCodes';
