// What a person sees, for the end-to-end tests of the classroom and the
// demo (issue 28): whether an element is in the viewport (and inside the
// scrolling boxes around it), how large text is drawn, sideways scrolling,
// files dropped as a browser drops them, and axe-core's accessibility
// checks (an npm dev dependency, injected into the page).
import assert from 'node:assert/strict';
import path from 'node:path';
import { root } from './helpers.mjs';

/** The screen sizes of issue 28: a laptop, a phone, and two projectors. */
export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };
export const PROJECTOR = { width: 1920, height: 1080 };
export const SMALL_PROJECTOR = { width: 1280, height: 720 };

/**
 * Where `sel` is drawn: its box in the viewport, and whether it is wholly
 * visible there (inside the viewport and inside every scrolling box around it).
 */
export async function placed(page, sel) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return { inside: false, missing: sel };
    const r = el.getBoundingClientRect();
    let inside = r.height > 0 && r.width > 0 && r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
    for (let p = el.parentElement; p && inside; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (!/(auto|scroll|hidden)/.test(style.overflow + style.overflowX + style.overflowY)) continue;
      const b = p.getBoundingClientRect();
      inside = r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && r.left >= b.left - 1 && r.right <= b.right + 1;
    }
    const visible = getComputedStyle(el).visibility !== 'hidden' && el.checkVisibility?.() !== false;
    return { inside: inside && visible, top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: innerWidth, height: innerHeight };
  }, sel);
}

/** Asserts that `sel` is wholly in view (`what` says what the person looks at). */
export async function assertInView(page, sel, what) {
  const p = await placed(page, sel);
  assert.ok(p.inside, `${what}: ${sel} is in view (${JSON.stringify(p)})`);
}

/** Waits until `sel` is wholly in view (a scroll into view may be smooth or follow a render). */
export async function waitInView(page, sel, what, timeout = 5000) {
  const end = Date.now() + timeout;
  for (;;) {
    const p = await placed(page, sel);
    if (p.inside) return;
    if (Date.now() > end) assert.fail(`${what}: ${sel} is in view (${JSON.stringify(p)})`);
    await page.waitForTimeout(100);
  }
}

/** The page does not scroll sideways (nothing wider than the screen). */
export async function assertNoSidewaysScroll(page, what) {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: innerWidth }));
  assert.ok(w.scroll <= w.view, `${what}: the page is no wider than the screen (${JSON.stringify(w)})`);
}

/** The size text of `sel` (an SVG text or an HTML element) is drawn at on the screen (px). */
export async function textPx(page, sel) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const svg = el.closest('svg');
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (!svg || !svg.viewBox.baseVal || svg.viewBox.baseVal.width === 0) return size;
    return size * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  }, sel);
}

/** Drops `files` ({ name, text }) on `sel` as a browser does (a drop event with a DataTransfer). */
export async function drop(page, sel, files) {
  const transfer = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([f.text], f.name, { type: 'application/octet-stream' }));
    return dt;
  }, files);
  await page.dispatchEvent(sel, 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent(sel, 'drop', { dataTransfer: transfer });
}

/** Every axe-core rule that applies to the page, the experimental ones included. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'];

/** axe-core's violations on the page as it is now, as lines (rule, count, first places). */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) {
    await page.addScriptTag({ path: path.join(root, 'node_modules/axe-core/axe.min.js') });
  }
  const violations = await page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} ×${v.nodes.length}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }, AXE_TAGS);
  return violations;
}

/** Asserts axe-core finds no violation on the page in state `what`. */
export async function assertAccessible(page, what) {
  const violations = await axeViolations(page);
  if (process.env.AXE_LOG) { if (violations.length) console.log(`== ${what}\n${violations.join('\n')}`); return; }
  assert.deepEqual(violations, [], `${what}: axe-core violations:\n${violations.join('\n')}`);
}
