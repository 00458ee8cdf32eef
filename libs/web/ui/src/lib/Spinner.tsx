import './spinner.css';
/** A loading indicator announced to screen readers with `label`. */
export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="g-spinner-wrap" role="status">
      <span className="g-spinner" aria-hidden="true" />
      <span className="g-visually-hidden">{label}</span>
    </div>
  );
}
