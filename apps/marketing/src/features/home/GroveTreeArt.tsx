/**
 * The hero illustration: a member's tree whose branches are the friends they referred, with the
 * price dropping as branches grow. Decorative (hidden from screen readers), fixed aspect ratio so
 * it never shifts the layout.
 */
export function GroveTreeArt({ className }: { className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 360 300"
      width="360"
      height="300"
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        <linearGradient id="mk-art-sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#e3f1e8" />
          <stop offset="1" stopColor="#f6f8f5" />
        </linearGradient>
      </defs>
      <rect x="8" y="8" width="344" height="284" rx="28" fill="url(#mk-art-sky)" />
      <path d="M180 262V170" stroke="#5b4636" strokeWidth="10" strokeLinecap="round" />
      <path
        d="M180 200 128 160M180 186l58-40M180 226l-46-24M180 214l50-22"
        stroke="#5b4636"
        strokeWidth="6"
        strokeLinecap="round"
      />
      <circle cx="180" cy="112" r="62" fill="#3f9a67" />
      <circle cx="128" cy="150" r="34" fill="#2f7d52" />
      <circle cx="238" cy="140" r="36" fill="#2f7d52" />
      <circle cx="130" cy="200" r="22" fill="#226b45" />
      <circle cx="232" cy="190" r="24" fill="#226b45" />
      <path d="M96 266h168" stroke="#b9d7c4" strokeWidth="6" strokeLinecap="round" />
      <g>
        <rect x="22" y="34" width="118" height="50" rx="12" fill="#fff" stroke="#d6e2da" />
        <circle cx="44" cy="59" r="11" fill="#dfeee4" />
        <path d="M38 59h12M44 53v12" stroke="#226b45" strokeWidth="2.5" strokeLinecap="round" />
        <rect x="62" y="50" width="62" height="7" rx="3.5" fill="#1b5a3a" />
        <rect x="62" y="63" width="42" height="6" rx="3" fill="#b9c9bf" />
      </g>
      <g>
        <rect x="226" y="226" width="122" height="52" rx="12" fill="#fff" stroke="#d6e2da" />
        <text x="242" y="247" fontSize="12" fontFamily="system-ui, sans-serif" fill="#4d5f54">
          New price
        </text>
        <text
          x="242"
          y="267"
          fontSize="17"
          fontWeight="700"
          fontFamily="system-ui, sans-serif"
          fill="#1b5a3a"
        >
          $69.00
        </text>
        <path
          d="m328 244 0 16m-5-5 5 5 5-5"
          stroke="#226b45"
          strokeWidth="2.5"
          strokeLinecap="round"
          fill="none"
        />
      </g>
    </svg>
  );
}
