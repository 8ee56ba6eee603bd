// axe-core WCAG 2.1 A/AA checks (colour contrast included) of the page as it is now. The page must be
// opened with bypassCSP: axe is injected as an inline script past the gateway's script-src 'self'.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/**
 * `rules: 'all'` runs every axe rule (best practices too: one `main`, landmarks, heading order...), not
 * only the WCAG tags; violations of every impact level are returned either way.
 */
export async function axeViolations(page: Page, options: { rules?: 'wcag' | 'all' } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = (await page.evaluate(async (all) => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(
      document,
      all ? {} : { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } },
    );
    return result.violations;
  }, options.rules === 'all')) as AxeViolation[];
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}
