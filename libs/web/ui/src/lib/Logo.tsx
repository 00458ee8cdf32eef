import './logo.css';
/** Grove's mark and word. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <span className="g-logo">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="16" cy="12" r="10" fill="#3f9a67" />
        <circle cx="10" cy="15" r="6" fill="#2f7d52" />
        <circle cx="22" cy="15" r="6" fill="#2f7d52" />
        <rect x="14.5" y="17" width="3" height="13" rx="1.5" fill="#5b4636" />
      </svg>
      <span className="g-logo__word">Grove</span>
    </span>
  );
}
