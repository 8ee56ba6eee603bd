// The offline design generator: draws an SVG concept for a coin, patch or shirt from the customer's
// prompt when no image API is configured. Colour words become the palette, quoted text (or the
// prompt's UPPERCASE words) becomes the lettering, and keywords pick the emblem. The same prompt always
// gives the same drawing. Every piece of prompt text is XML-escaped before it enters the document.
import { createHash } from 'node:crypto';
import type { ItemType } from '@shop/contracts';

// ---------------------------------------------------------------------------------------------
// Reading the prompt
// ---------------------------------------------------------------------------------------------
/** Colour words the generator knows; multi-word names first so "od green" wins over "green". */
export const colorWords: [string, string][] = [
  ['od green', '#5a5f3a'],
  ['olive drab', '#5a5f3a'],
  ['ranger green', '#4a5a3a'],
  ['coyote tan', '#a8906a'],
  ['navy blue', '#1f2f4f'],
  ['sky blue', '#6fa8dc'],
  ['royal blue', '#2741a8'],
  ['forest green', '#2e4d2e'],
  ['red', '#b4382b'],
  ['crimson', '#9e1b32'],
  ['scarlet', '#c8102e'],
  ['maroon', '#6d1a24'],
  ['burgundy', '#6d1a24'],
  ['orange', '#d9822b'],
  ['yellow', '#e8c547'],
  ['gold', '#d4a93c'],
  ['golden', '#d4a93c'],
  ['brass', '#b5a642'],
  ['bronze', '#b08d57'],
  ['copper', '#b87333'],
  ['silver', '#c0c0c0'],
  ['chrome', '#d8d8d8'],
  ['gray', '#7d7d7d'],
  ['grey', '#7d7d7d'],
  ['black', '#151515'],
  ['white', '#f7f3e8'],
  ['green', '#4d7a35'],
  ['olive', '#6b6b3a'],
  ['blue', '#2f5fa8'],
  ['navy', '#1f2f4f'],
  ['teal', '#2a7f7f'],
  ['purple', '#5b3a8c'],
  ['pink', '#d97a9a'],
  ['brown', '#6b4a2b'],
  ['tan', '#a8906a'],
  ['khaki', '#b5a27a'],
  ['coyote', '#a8906a'],
];

const defaultPalettes: Record<ItemType, string[]> = {
  coin: ['#d4a93c', '#1f2f4f', '#f7f3e8'],
  patch: ['#5a5f3a', '#151515', '#e8c547'],
  shirt: ['#151515', '#5a5f3a', '#f7f3e8'],
};

/** Hex colours named in the prompt, in the order they appear, each once. */
export function paletteFromPrompt(prompt: string): string[] {
  const text = ` ${prompt.toLowerCase().replace(/[^a-z]+/g, ' ')} `;
  const found: { at: number; hex: string; length: number }[] = [];
  const taken: [number, number][] = [];
  for (const [word, hex] of colorWords) {
    let from = 0;
    for (;;) {
      const at = text.indexOf(` ${word} `, from);
      if (at < 0) break;
      from = at + 1;
      const span: [number, number] = [at + 1, at + 1 + word.length];
      // "od green" already claimed these letters: plain "green" inside it does not count again.
      if (taken.some(([a, b]) => span[0] < b && a < span[1])) continue;
      taken.push(span);
      found.push({ at, hex, length: word.length });
    }
  }
  const ordered = found.sort((a, b) => a.at - b.at).map((f) => f.hex);
  return [...new Set(ordered)];
}

const branchTexts: [RegExp, string][] = [
  [/\bair\s*force\b/i, 'U.S. AIR FORCE'],
  [/\bcoast\s*guard\b/i, 'COAST GUARD'],
  [/\bspace\s*force\b/i, 'SPACE FORCE'],
  [/\bmarines?\b|\busmc\b/i, 'U.S. MARINES'],
  [/\bnavy\b/i, 'U.S. NAVY'],
  [/\barmy\b/i, 'U.S. ARMY'],
  [/\bpolice\b|\blaw enforcement\b/i, 'POLICE'],
  [/\bfire\s*(fighters?|department|dept|rescue)\b/i, 'FIRE RESCUE'],
  [/\b(ems|paramedics?)\b/i, 'EMS'],
];

const stopWords = new Set(
  'a an and the of for with on in at to by from my our your their its is are be as or that this these those make create design designs coin coins patch patches shirt shirts challenge custom tactical please some featuring feature style military want would like have has into over under around'.split(
    ' ',
  ),
);

/** The lettering: quoted text first, else UPPERCASE words, else a service branch, else key words. */
export function textFromPrompt(prompt: string): { main: string; second: string | null } {
  const quoted = [...prompt.matchAll(/"([^"]{1,60})"|“([^”]{1,60})”|'([^']{2,60})'/g)]
    .map((m) => (m[1] ?? m[2] ?? m[3] ?? '').trim())
    .filter(Boolean);
  if (quoted.length > 0)
    return { main: clip(quoted[0].toUpperCase()), second: quoted[1] ? clip(quoted[1].toUpperCase()) : null };
  // Words written in capitals (unit names like "3RD BATTALION"), at least two capital letters each.
  const upper = [...prompt.matchAll(/(?<![A-Za-z0-9])[A-Z0-9][A-Z0-9.&'-]+(?![A-Za-z0-9])/g)]
    .map((m) => m[0])
    .filter((word) => word.replace(/[^A-Z]/g, '').length >= 2);
  if (upper.length > 0) return { main: clip(upper.join(' ')), second: null };
  for (const [pattern, text] of branchTexts) if (pattern.test(prompt)) return { main: text, second: null };
  const colours = new Set(colorWords.flatMap(([w]) => w.split(' ')));
  const words = prompt
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 2 && !stopWords.has(w) && !colours.has(w));
  return { main: clip(words.slice(0, 2).join(' ').toUpperCase() || 'CUSTOM'), second: null };
}

const clip = (text: string, max = 28) => (text.length > max ? text.slice(0, max).trimEnd() : text);

export type Emblem = 'star' | 'anchor' | 'wings' | 'shield' | 'chevrons' | 'cross' | 'eagle';

export function emblemFromPrompt(prompt: string, seed: number): Emblem {
  const p = prompt.toLowerCase();
  if (/\banchor|\bnavy\b|\bsea\b|\bnaval|\bsailor/.test(p)) return 'anchor';
  if (/\beagle|\bhawk|\bfalcon/.test(p)) return 'eagle';
  if (/\bwings?\b|\bair\s*force|\baviation|\bpilot|\bairborne/.test(p)) return 'wings';
  if (/\bfire\s*(fighter|department|dept|rescue)|\brescue|\bmaltese/.test(p)) return 'cross';
  if (/\bpolice|\bbadge|\bshield|\blaw\b|\bsheriff/.test(p)) return 'shield';
  if (/\bchevron|\bsergeant|\brank|\barmy\b|\bstripes?\b/.test(p)) return 'chevrons';
  if (/\bstars?\b/.test(p)) return 'star';
  const choices: Emblem[] = ['star', 'shield', 'chevrons', 'eagle'];
  return choices[seed % choices.length];
}

// ---------------------------------------------------------------------------------------------
// Drawing helpers
// ---------------------------------------------------------------------------------------------
export function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => {
    const v = (n >> shift) & 255;
    const out = amount >= 0 ? v + (255 - v) * amount : v * (1 + amount);
    return Math.round(Math.min(255, Math.max(0, out)))
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

/** Perceived brightness 0..1, to pick readable lettering. */
function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
}
const contrastOn = (background: string, a: string, b: string) =>
  Math.abs(luminance(a) - luminance(background)) >= Math.abs(luminance(b) - luminance(background)) ? a : b;

const f = (n: number) => Number(n.toFixed(2));

function starPoints(cx: number, cy: number, outer: number, inner: number, points = 5): string {
  const out: string[] = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (i * Math.PI) / points;
    out.push(`${f(cx + r * Math.cos(a))},${f(cy + r * Math.sin(a))}`);
  }
  return out.join(' ');
}

/** The emblem drawn in a 200x200 box centred on (0,0). */
function emblemSvg(emblem: Emblem, fill: string, stroke: string): string {
  const s = `fill="${fill}" stroke="${stroke}" stroke-width="4" stroke-linejoin="round"`;
  switch (emblem) {
    case 'star':
      return `<polygon points="${starPoints(0, 0, 90, 36)}" ${s}/>`;
    case 'anchor':
      return [
        `<circle cx="0" cy="-70" r="16" fill="none" stroke="${fill}" stroke-width="10"/>`,
        `<rect x="-7" y="-54" width="14" height="130" ${s}/>`,
        `<rect x="-45" y="-40" width="90" height="12" rx="4" ${s}/>`,
        `<path d="M -75 20 Q -70 80 0 86 Q 70 80 75 20 L 88 32 L 80 4 L 56 14 L 66 22 Q 60 62 0 68 Q -60 62 -66 22 L -56 14 L -80 4 L -88 32 Z" ${s}/>`,
      ].join('');
    case 'wings':
      return [
        `<path d="M -12 -10 C -60 -60 -100 -40 -100 -30 C -80 -30 -70 -20 -92 -14 C -70 -10 -64 -2 -84 4 C -60 6 -40 10 -12 20 Z" ${s}/>`,
        `<path d="M 12 -10 C 60 -60 100 -40 100 -30 C 80 -30 70 -20 92 -14 C 70 -10 64 -2 84 4 C 60 6 40 10 12 20 Z" ${s}/>`,
        `<polygon points="${starPoints(0, 2, 26, 11)}" ${s}/>`,
      ].join('');
    case 'shield':
      return [
        `<path d="M 0 -90 L 75 -62 Q 72 40 0 92 Q -72 40 -75 -62 Z" ${s}/>`,
        `<path d="M 0 -64 L 52 -44 Q 50 28 0 66 Q -50 28 -52 -44 Z" fill="none" stroke="${stroke}" stroke-width="4"/>`,
        `<polygon points="${starPoints(0, -2, 30, 12)}" fill="${stroke}"/>`,
      ].join('');
    case 'chevrons':
      return [0, 1, 2]
        .map(
          (i) =>
            `<path d="M -80 ${-50 + i * 42} L 0 ${-90 + i * 42} L 80 ${-50 + i * 42} L 80 ${-28 + i * 42} L 0 ${-68 + i * 42} L -80 ${-28 + i * 42} Z" ${s}/>`,
        )
        .join('');
    case 'cross':
      return [
        `<path d="M -22 -90 L 22 -90 L 12 -12 L 90 -22 L 90 22 L 12 12 L 22 90 L -22 90 L -12 12 L -90 22 L -90 -22 L -12 -12 Z" ${s}/>`,
        `<circle cx="0" cy="0" r="24" fill="${stroke}"/>`,
      ].join('');
    case 'eagle':
      return [
        `<path d="M 0 -40 C -30 -70 -80 -80 -100 -50 C -80 -50 -76 -40 -96 -30 C -74 -28 -70 -18 -88 -8 C -60 -6 -30 0 -14 20 L -20 70 L 0 56 L 20 70 L 14 20 C 30 0 60 -6 88 -8 C 70 -18 74 -28 96 -30 C 76 -40 80 -50 100 -50 C 80 -80 30 -70 0 -40 Z" ${s}/>`,
        `<path d="M -10 -44 C -8 -66 14 -70 20 -56 L 32 -52 L 18 -46 C 12 -40 -2 -38 -10 -44 Z" ${s}/>`,
      ].join('');
  }
}

function fontSizeFor(text: string, max: number, widthPerChar: number, room: number): number {
  return Math.max(14, Math.min(max, Math.floor(room / Math.max(1, text.length) / widthPerChar)));
}

const FONT = `font-family="Georgia, 'Times New Roman', serif" font-weight="bold" letter-spacing="2"`;

// ---------------------------------------------------------------------------------------------
// The three drawings (512 x 512)
// ---------------------------------------------------------------------------------------------
interface Look {
  primary: string;
  secondary: string;
  accent: string;
  text: { main: string; second: string | null };
  emblem: Emblem;
  seed: number;
}

function coin({ primary, secondary, accent, text, emblem }: Look): string {
  const reeds = Array.from({ length: 120 }, (_, i) => {
    const a = (i * Math.PI * 2) / 120;
    return `M ${f(256 + 238 * Math.cos(a))} ${f(256 + 238 * Math.sin(a))} L ${f(256 + 252 * Math.cos(a))} ${f(256 + 252 * Math.sin(a))}`;
  }).join(' ');
  const letters = contrastOn(primary, '#151515', '#f7f3e8');
  const mainSize = fontSizeFor(text.main, 30, 0.72, 560);
  const bottom = text.second
    ? `<text ${FONT} font-size="${fontSizeFor(text.second, 24, 0.72, 420)}" fill="${letters}" text-anchor="middle"><textPath href="#bottomArc" startOffset="50%">${escapeXml(text.second)}</textPath></text>`
    : [-2, -1, 0, 1, 2]
        .map((i) => {
          const a = Math.PI / 2 + i * 0.28;
          return `<polygon points="${starPoints(256 + 218 * Math.cos(a), 256 + 218 * Math.sin(a), 10, 4)}" fill="${letters}"/>`;
        })
        .join('');
  return [
    `<defs>`,
    `<radialGradient id="metal" cx="38%" cy="32%" r="75%"><stop offset="0" stop-color="${shade(primary, 0.45)}"/><stop offset="0.55" stop-color="${primary}"/><stop offset="1" stop-color="${shade(primary, -0.45)}"/></radialGradient>`,
    `<radialGradient id="field" cx="40%" cy="35%" r="80%"><stop offset="0" stop-color="${shade(secondary, 0.2)}"/><stop offset="0.5" stop-color="${secondary}"/><stop offset="1" stop-color="${shade(secondary, -0.25)}"/></radialGradient>`,
    `<path id="topArc" d="M 44 256 A 212 212 0 0 1 468 256"/>`,
    `<path id="bottomArc" d="M 30 256 A 226 226 0 0 0 482 256"/>`,
    `</defs>`,
    `<circle cx="256" cy="256" r="254" fill="${shade(primary, -0.35)}"/>`,
    `<path d="${reeds}" stroke="${shade(primary, 0.25)}" stroke-width="3"/>`,
    `<circle cx="256" cy="256" r="238" fill="url(#metal)" stroke="${shade(primary, -0.5)}" stroke-width="3"/>`,
    `<circle cx="256" cy="256" r="180" fill="url(#field)" stroke="${shade(primary, -0.3)}" stroke-width="8"/>`,
    `<circle cx="256" cy="256" r="168" fill="none" stroke="${accent}" stroke-width="3" stroke-dasharray="3 7"/>`,
    `<text ${FONT} font-size="${mainSize}" fill="${letters}" text-anchor="middle"><textPath href="#topArc" startOffset="50%">${escapeXml(text.main)}</textPath></text>`,
    bottom,
    `<g transform="translate(256 256) scale(0.95)">${emblemSvg(emblem, primary, accent)}</g>`,
  ].join('\n');
}

function patch({ primary, secondary, accent, text, emblem }: Look): string {
  const outline = 'M 256 24 L 452 92 Q 446 330 256 488 Q 66 330 60 92 Z';
  const inner = 'M 256 50 L 426 108 Q 420 318 256 458 Q 92 318 86 108 Z';
  const letters = contrastOn(accent, '#151515', '#f7f3e8');
  const mainSize = fontSizeFor(text.main, 32, 0.8, 250);
  return [
    `<defs><pattern id="twill" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="${primary}"/><line x1="0" y1="0" x2="0" y2="6" stroke="${shade(primary, -0.18)}" stroke-width="2"/></pattern></defs>`,
    // Merrowed edge: a thick border in the secondary colour with its overlock stitch.
    `<path d="${outline}" fill="${secondary}" stroke="${shade(secondary, -0.4)}" stroke-width="4"/>`,
    `<path d="${outline}" fill="none" stroke="${shade(secondary, 0.35)}" stroke-width="14" stroke-dasharray="2 4"/>`,
    `<path d="${inner}" fill="url(#twill)"/>`,
    // Embroidered running stitch just inside the border.
    `<path d="M 256 64 L 412 116 Q 406 310 256 440 Q 106 310 100 116 Z" fill="none" stroke="${accent}" stroke-width="3" stroke-dasharray="10 6"/>`,
    `<g transform="translate(256 218) scale(0.9)">${emblemSvg(emblem, accent, shade(primary, -0.45))}</g>`,
    `<path d="M 110 330 L 402 330 L 390 356 L 402 382 L 110 382 L 122 356 Z" fill="${accent}" stroke="${shade(accent, -0.4)}" stroke-width="3"/>`,
    `<text ${FONT} x="256" y="${356 + mainSize * 0.36}" font-size="${mainSize}" fill="${letters}" text-anchor="middle">${escapeXml(text.main)}</text>`,
    text.second
      ? `<text ${FONT} x="256" y="420" font-size="${fontSizeFor(text.second, 20, 0.7, 180)}" fill="${accent}" text-anchor="middle">${escapeXml(text.second)}</text>`
      : '',
  ].join('\n');
}

function shirt({ primary, secondary, accent, text, emblem }: Look): string {
  const body =
    'M 176 40 Q 256 84 336 40 L 452 92 L 500 200 L 420 232 L 400 196 L 400 480 L 112 480 L 112 196 L 92 232 L 12 200 L 60 92 Z';
  const print = contrastOn(primary, accent, secondary);
  const mainSize = fontSizeFor(text.main, 28, 0.7, 220);
  return [
    `<defs><linearGradient id="fabric" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${shade(primary, 0.12)}"/><stop offset="0.5" stop-color="${primary}"/><stop offset="1" stop-color="${shade(primary, -0.15)}"/></linearGradient></defs>`,
    `<path d="${body}" fill="url(#fabric)" stroke="${shade(primary, -0.5)}" stroke-width="4" stroke-linejoin="round"/>`,
    `<path d="M 176 40 Q 256 84 336 40 Q 256 104 176 40 Z" fill="${shade(primary, -0.3)}"/>`,
    // Seams: sleeves, hem and collar stitching.
    `<path d="M 112 196 L 136 92 M 400 196 L 376 92 M 112 464 L 400 464" stroke="${shade(primary, -0.35)}" stroke-width="2" stroke-dasharray="6 5" fill="none"/>`,
    `<g transform="translate(256 200) scale(0.55)">${emblemSvg(emblem, print, shade(primary, -0.4))}</g>`,
    `<text ${FONT} x="256" y="${282 + mainSize * 0.36}" font-size="${mainSize}" fill="${print}" text-anchor="middle">${escapeXml(text.main)}</text>`,
    text.second
      ? `<text ${FONT} x="256" y="336" font-size="${fontSizeFor(text.second, 18, 0.7, 200)}" fill="${print}" text-anchor="middle">${escapeXml(text.second)}</text>`
      : '',
  ].join('\n');
}

const titles: Record<ItemType, string> = { coin: 'Challenge coin', patch: 'Patch', shirt: 'Tactical shirt' };

export interface OfflineDesign {
  svg: string;
  palette: string[];
  text: { main: string; second: string | null };
  emblem: Emblem;
}

/** Draws the design. Deterministic: the same prompt and item always give the same bytes. */
export function drawOfflineDesign(prompt: string, itemType: ItemType): OfflineDesign {
  const seed = createHash('sha256').update(`${itemType}\n${prompt}`).digest().readUInt32BE(0);
  const named = paletteFromPrompt(prompt);
  const defaults = defaultPalettes[itemType];
  const palette = [...named, ...defaults.filter((c) => !named.includes(c))];
  const [primary, secondary, accent] = [palette[0], palette[1], palette[2]];
  const look: Look = {
    primary,
    secondary,
    accent,
    text: textFromPrompt(prompt),
    emblem: emblemFromPrompt(prompt, seed),
    seed,
  };
  const art = itemType === 'coin' ? coin(look) : itemType === 'patch' ? patch(look) : shirt(look);
  const svg = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512" role="img">`,
    `<title>${escapeXml(`${titles[itemType]} design: ${prompt.slice(0, 200)}`)}</title>`,
    art,
    `</svg>`,
    '',
  ].join('\n');
  return { svg, palette: named, text: look.text, emblem: look.emblem };
}
