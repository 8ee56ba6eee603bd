// Product drawings as SVG (DESIGN.md: real product imagery drawn, not stock photos).
import type { ItemType } from '@shop/contracts';

function CoinArt() {
  return (
    <svg viewBox="0 0 120 120" aria-hidden="true" className="size-full">
      <circle cx="60" cy="62" r="50" fill="#0c0e09" opacity="0.5" />
      <circle cx="60" cy="58" r="50" fill="#8f6f1d" />
      <circle cx="60" cy="58" r="44" fill="#d4a93c" />
      <circle cx="60" cy="58" r="44" fill="none" stroke="#8f6f1d" strokeWidth="4" strokeDasharray="2 3" />
      <circle cx="60" cy="58" r="34" fill="#b68e27" stroke="#0c0e09" strokeWidth="1.5" />
      <path d="M60 34l6.2 14.6 15.8 1.2-12 10.4 3.8 15.4L60 67.3l-13.8 8.3 3.8-15.4-12-10.4 15.8-1.2z" fill="#1a1f14" />
      <path d="M34 88 Q60 100 86 88" fill="none" stroke="#0c0e09" strokeWidth="2" />
    </svg>
  );
}

function PatchArt() {
  return (
    <svg viewBox="0 0 120 120" aria-hidden="true" className="size-full">
      <path
        d="M60 10 L104 26 L98 78 Q90 100 60 112 Q30 100 22 78 L16 26 Z"
        fill="#0c0e09"
        opacity="0.5"
        transform="translate(0 4)"
      />
      <path
        d="M60 10 L104 26 L98 78 Q90 100 60 112 Q30 100 22 78 L16 26 Z"
        fill="#465234"
        stroke="#d4a93c"
        strokeWidth="5"
      />
      <path
        d="M60 18 L96 31 L91 76 Q84 94 60 104 Q36 94 29 76 L24 31 Z"
        fill="none"
        stroke="#ece5d0"
        strokeWidth="1.2"
        strokeDasharray="3 2"
      />
      <path d="M38 56 L60 40 L82 56 L82 62 L60 48 L38 62 Z" fill="#d4a93c" />
      <path d="M38 70 L60 54 L82 70 L82 76 L60 62 L38 76 Z" fill="#d4a93c" />
      <circle cx="60" cy="88" r="5" fill="#ece5d0" />
    </svg>
  );
}

function ShirtArt() {
  return (
    <svg viewBox="0 0 120 120" aria-hidden="true" className="size-full">
      <path
        d="M40 14 L22 22 L6 44 L22 54 L28 46 L28 108 L92 108 L92 46 L98 54 L114 44 L98 22 L80 14 Q60 28 40 14 Z"
        fill="#0c0e09"
        opacity="0.5"
        transform="translate(0 4)"
      />
      <path
        d="M40 14 L22 22 L6 44 L22 54 L28 46 L28 108 L92 108 L92 46 L98 54 L114 44 L98 22 L80 14 Q60 28 40 14 Z"
        fill="#5c6b43"
        stroke="#242b1b"
        strokeWidth="2"
      />
      <path d="M40 14 Q60 28 80 14" fill="none" stroke="#242b1b" strokeWidth="3" />
      <rect x="36" y="40" width="16" height="12" rx="1.5" fill="#465234" stroke="#242b1b" strokeWidth="1.5" />
      <rect x="68" y="40" width="16" height="12" rx="1.5" fill="#465234" stroke="#242b1b" strokeWidth="1.5" />
      <path d="M52 72 h16 v14 l-8 5 -8 -5 z" fill="#d4a93c" />
      <line x1="60" y1="22" x2="60" y2="108" stroke="#242b1b" strokeWidth="1" strokeDasharray="2 3" />
    </svg>
  );
}

export function ItemArt({ item, className }: { item: ItemType; className?: string }) {
  return (
    <div className={className}>{item === 'coin' ? <CoinArt /> : item === 'patch' ? <PatchArt /> : <ShirtArt />}</div>
  );
}
