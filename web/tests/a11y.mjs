// axe-core (npm, MPL-2.0) in the browser tests (issue 11, P16): a page or dialog as it
// stands must have no violation that axe rates serious or critical. The script is
// evaluated through the DevTools protocol, which the page's Content-Security-Policy
// does not govern (a <script> tag would be refused by script-src 'self').
// SPDX-License-Identifier: GPL-3.0-or-later
import fs from 'node:fs';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// The serious and critical violations on the page now, one line per element.
// `impacts`: the ratings that count (issue 28's pages: 'moderate' too).
export async function axeViolations(page, { include, impacts = ['serious', 'critical'] } = {}) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async ([context, impacts]) => {
    const axe = /** @type {any} */ (window).axe;
    const res = await axe.run(context ?? document, { resultTypes: ['violations'] });
    return res.violations
      .filter((v) => impacts.includes(v.impact))
      .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}): ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`));
  }, [include ?? null, impacts]);
}

// Fails with axe's own words for each element when anything serious or critical is found.
export async function assertAccessible(page, where, opts = {}) {
  const found = await axeViolations(page, opts);
  assert.deepEqual(found, [], `axe-core on ${where}:\n${found.join('\n')}`);
}
