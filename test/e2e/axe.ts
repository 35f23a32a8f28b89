import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

// axe-core for every e2e file that checks a screen. AxeBuilder's default run injects axe into each
// frame, runs it in parts, then opens a blank page in the context, injects axe there too and
// assembles every result (passes included) in it: about a second a scan. Our pages' frames are
// all same-origin, which "legacy mode" (one axe.run in the page, frames reached through axe's
// same-origin messenger) checks just the same, and only violations are collected.

/** WCAG 2.0 and 2.1, levels A and AA: what the console is held to. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** ... and 2.2 AA: customer pages and Agent Preview (issue 27: target sizes, focus not obscured). */
export const WCAG_22_AA = [...WCAG_AA, 'wcag22aa'];

export type Violations = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'];

/** The page's violations of `tags`, as it is now (`include`: only inside this selector; `exclude`: not inside these). */
export async function axeViolations(
  page: Page,
  options: { tags?: string[]; include?: string; exclude?: string[] } = {},
): Promise<Violations> {
  let builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(options.tags ?? WCAG_AA)
    .setLegacyMode(true);
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  return (await builder.analyze()).violations;
}

/** Each violation with the elements it was found on: what a failed check prints. */
export function describeViolations(violations: Violations): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}${n.failureSummary ? `\n      ${n.failureSummary.replace(/\n/g, '\n      ')}` : ''}`).join('\n')}`,
    )
    .join('\n');
}
