import './lib/styles.css';

export * from './lib/Button';
export * from './lib/TextField';
export * from './lib/TextArea';
export * from './lib/SelectField';
export * from './lib/Modal';
export * from './lib/Spinner';
export * from './lib/Alert';
export * from './lib/EmptyState';
export * from './lib/PageHeader';
export * from './lib/Card';
export * from './lib/Pagination';
export * from './lib/Logo';
export * from './lib/NotFoundPage';
export * from './lib/ErrorScreen';
export * from './lib/useTimedMessage';
