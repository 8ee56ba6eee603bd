// The bench's report (issue 20): one row per figure, each beside its baseline from the same run, its goal
// and whether it is met; printed, and put at the top of its section of RESULTS.md with the date, the
// commit and the machine's load average. Goals are thresholds of a report: a missed goal never fails.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';

export interface ReportRow {
  /** What is measured, e.g. "gateway proxying a read to a stand-in service". */
  path: string;
  figure: string;
  /** The baseline and peers of the same run. */
  beside: string;
  goal: string;
  /** undefined: not measured (then `figure` says why). */
  met: boolean | undefined;
}

export interface RunFacts {
  date: string;
  commit: string;
  cores: number;
  node: string;
  loadStart: number[];
  loadEnd: number[];
  connections: number;
  durationSeconds: number;
  totalSeconds: number;
  notes: string[];
}

export const SECTION_HEADING = '# The shop beside its peers: `npm run bench` (issue 20)';

const SECTION_INTRO = `\`npm run bench -w load-tests\` (method in [README.md](README.md#the-issue-20-table-npm-run-bench)): every row
measured in one run, each beside a baseline measured in the same run (bare Fastify answering the same payload;
for the proxied read also a minimal @fastify/http-proxy and nginx with one worker). Ratios are the figures to
read: the load generator and what it measures share the machine's cores. Newest run first.`;

export const int = (n: number) => Math.round(n).toLocaleString('en-US');
export const ms = (n: number) => (n >= 100 ? int(n) : n.toFixed(1));
export const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
export const perSecond = (n: number) => `${int(n)} req/s`;

function verdict(met: boolean | undefined): string {
  return met === undefined ? 'not measured' : met ? 'met' : '**not met**';
}

export function markdownTable(rows: ReportRow[]): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| path | figure | beside, same run | goal | |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${escape(r.path)} | ${escape(r.figure)} | ${escape(r.beside)} | ${escape(r.goal)} | ${verdict(r.met)} |`,
    ),
  ].join('\n');
}

export function runMarkdown(rows: ReportRow[], facts: RunFacts): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const met = rows.filter((r) => r.met === true).length;
  const measured = rows.filter((r) => r.met !== undefined).length;
  return [
    `## ${facts.date}, commit ${facts.commit}`,
    '',
    `${facts.cores} cores, Node ${facts.node}; load average (1/5/15 min) ${load(facts.loadStart)} at the start, ${load(facts.loadEnd)} at the end;`,
    `autocannon, ${facts.connections} connections, ${facts.durationSeconds} s per measurement after a 1 s warm-up; whole run ${Math.round(facts.totalSeconds)} s.`,
    `Goals met: ${met} of ${measured} measured.`,
    '',
    markdownTable(rows),
    ...(facts.notes.length ? ['', ...facts.notes.map((n) => `- ${n}`)] : []),
    '',
  ].join('\n');
}

/**
 * Writes RESULTS.md as Prettier lays it out (tables aligned): `npm test` checks the repository's format, so a
 * recorded run must leave the file as `npm run format` would.
 */
export async function writeResults(resultsPath: string, text: string): Promise<void> {
  const options = (await resolveConfig(resultsPath)) ?? {};
  await writeFile(resultsPath, await format(text, { ...options, filepath: resultsPath }));
}

/**
 * Puts a benchmark's newest run at the top of its own section of RESULTS.md, a block between
 * `<!-- {marker}:start -->` and `<!-- {marker}:end -->` (appended when missing); other sections untouched.
 */
export async function recordMarkedSection(
  resultsPath: string,
  section: { marker: string; heading: string; intro: string; report: string },
): Promise<void> {
  const text = readFileSync(resultsPath, 'utf8');
  const sectionStart = `<!-- ${section.marker}:start -->`;
  const sectionEnd = `<!-- ${section.marker}:end -->`;
  const start = text.indexOf(sectionStart);
  const end = text.indexOf(sectionEnd);
  let runs = '';
  if (start >= 0 && end > start) {
    const body = text.slice(start + sectionStart.length, end);
    const first = body.indexOf('### ');
    runs = first >= 0 ? body.slice(first).trim() : '';
  }
  const block = `${sectionStart}\n${section.heading}\n\n${section.intro}\n\n${section.report}\n${runs ? `\n${runs}\n` : ''}${sectionEnd}`;
  const next =
    start >= 0 && end > start
      ? text.slice(0, start) + block + text.slice(end + sectionEnd.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  await writeResults(resultsPath, next);
}

/** Puts the run at the top of the issue-20 section of RESULTS.md (created at the end when missing). */
export async function recordRun(resultsPath: string, run: string): Promise<void> {
  let text = '';
  try {
    text = readFileSync(resultsPath, 'utf8');
  } catch {
    // A fresh checkout without RESULTS.md: start it.
  }
  const start = text.indexOf(`${SECTION_HEADING}\n`);
  if (start === -1) {
    const sep = text.length && !text.endsWith('\n\n') ? (text.endsWith('\n') ? '\n' : '\n\n') : '';
    await writeResults(resultsPath, `${text}${sep}${SECTION_HEADING}\n\n${SECTION_INTRO}\n\n${run}`);
    return;
  }
  // The runs follow the intro: the first "## " line after the heading, or the section's end.
  const bodyStart = start + SECTION_HEADING.length + 1;
  const nextSection = text.slice(bodyStart).search(/^# /m);
  const sectionEnd = nextSection === -1 ? text.length : bodyStart + nextSection;
  const firstRun = text.slice(bodyStart, sectionEnd).search(/^## /m);
  const insertAt = firstRun === -1 ? sectionEnd : bodyStart + firstRun;
  const before = text.slice(0, insertAt);
  const after = text.slice(insertAt);
  await writeResults(
    resultsPath,
    `${before}${before.endsWith('\n\n') ? '' : '\n'}${run}${after.startsWith('\n') || after === '' ? '' : '\n'}${after}`,
  );
}
