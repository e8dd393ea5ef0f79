import { mkdirSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Helpers of the accessibility spec: run axe on what is on screen, count by impact, print a table. */

export type Theme = 'light' | 'dark';

const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
type Impact = (typeof IMPACTS)[number];

export interface ScreenResult {
  theme: Theme;
  screen: string;
  /** Failing nodes per impact (one rule failing on 28 day buttons counts 28). */
  counts: Record<Impact, number>;
  /** One line per serious or critical rule: what fails and where. */
  blocking: string[];
}

/** Impacts that fail the run (issue 13). */
const BLOCKING: readonly Impact[] = ['critical', 'serious'];

/**
 * Waits for the page's animations and transitions that end within a second: a toast sliding in or
 * a theme's colours changing are read by axe at the frame it samples, and a colour halfway through
 * a fade (#777 on white, 4.47:1) is not what anyone reads. Longer ones (a toast's countdown bar, a
 * loading skeleton's endless pulse) are left running.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const ending = document
      .getAnimations()
      .filter((a) => {
        const t = a.effect?.getComputedTiming();
        return t !== undefined && Number(t.endTime) - Number(t.localTime ?? 0) <= 1000;
      })
      .map((a) => a.finished.catch(() => undefined));
    await Promise.race([Promise.all(ending), new Promise((resolve) => setTimeout(resolve, 1500))]);
  });
}

/**
 * Runs axe on one page, screen after screen, in one theme. Beyond axe's default WCAG 2.x A/AA and
 * best-practice rules it turns on `label-content-name-mismatch` (WCAG 2.5.3, still "experimental"
 * in axe): a control's accessible name must contain its visible text.
 */
export class AxeAudit {
  readonly results: ScreenResult[] = [];

  constructor(
    private readonly page: Page,
    readonly theme: Theme,
  ) {}

  /** Audits the page, or only `scope` (a CSS selector, e.g. the open dialog) when given. */
  async check(screen: string, scope?: string): Promise<ScreenResult> {
    let builder = new AxeBuilder({ page: this.page }).options({
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    if (scope) builder = builder.include(scope);
    await settled(this.page);
    const { violations } = await builder.analyze();
    const counts: Record<Impact, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
    const blocking: string[] = [];
    for (const v of violations) {
      const impact = (v.impact ?? 'minor') as Impact;
      counts[impact] += v.nodes.length;
      if (!BLOCKING.includes(impact)) continue;
      const where = v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` → ${oneLine(n.failureSummary)}` : ''}`)
        .join('\n      ');
      const more = v.nodes.length > 3 ? ` (+${v.nodes.length - 3} more)` : '';
      blocking.push(
        `[${this.theme}] ${screen}: ${v.id} (${impact}, ${v.nodes.length}) ${v.help}${more}\n      ${where}`,
      );
    }
    const result = { theme: this.theme, screen, counts, blocking };
    this.results.push(result);
    return result;
  }

  /** Every serious or critical finding so far. */
  blockingFindings(): string[] {
    return this.results.flatMap((r) => r.blocking);
  }

  /** Prints the per-screen table and keeps the raw counts in .tmp/axe/<theme>.json. */
  report(): string {
    const table = formatTable(this.results);
    console.log(`\naxe-core, ${this.theme} theme (failing nodes by impact)\n${table}`);
    mkdirSync('.tmp/axe', { recursive: true });
    writeFileSync(`.tmp/axe/${this.theme}.json`, JSON.stringify(this.results, null, 2));
    return table;
  }
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').slice(0, 240);

/** A fixed-width table: screen, one column per impact, and a total row. */
export function formatTable(results: readonly ScreenResult[]): string {
  const header = ['screen', ...IMPACTS];
  const total = (impact: Impact) => results.reduce((sum, r) => sum + r.counts[impact], 0);
  const rows = [
    ...results.map((r) => [r.screen, ...IMPACTS.map((i) => String(r.counts[i]))]),
    ['TOTAL', ...IMPACTS.map((i) => String(total(i)))],
  ];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
