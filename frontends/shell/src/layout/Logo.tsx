/** The shop's mark: a brass challenge coin with a star, drawn as SVG (no image files to fetch). */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 40 40" aria-hidden="true" className={className}>
      <circle cx="20" cy="20" r="19" fill="#8f6f1d" />
      <circle cx="20" cy="20" r="16" fill="#d4a93c" stroke="#0c0e09" strokeWidth="1.5" />
      <circle cx="20" cy="20" r="12.5" fill="none" stroke="#0c0e09" strokeWidth="0.8" strokeDasharray="1.5 1.5" />
      <path d="M20 10.5l2.6 6.2 6.7.5-5.1 4.4 1.6 6.5L20 24.6l-5.8 3.5 1.6-6.5-5.1-4.4 6.7-.5z" fill="#1a1f14" />
    </svg>
  );
}
