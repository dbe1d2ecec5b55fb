// Two tabs of the same origin never wait on each other forever: a tab asked for a newer schema
// gives way and says so, and a tab whose upgrade is blocked by an older connection says so and
// goes on once that connection closes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withBrowser } from './helpers.mjs';

const ctx = withBrowser();

/** A second page of the same origin that is not the app (a static file of the site). */
async function plainPage(context) {
  const page = await context.newPage();
  await page.goto(`${ctx.server.url}models/catalog.json`);
  return page;
}

test('another tab upgrading the schema: the app closes its connection and says so', async () => {
  const context = await ctx.browser.newContext({ locale: 'en' });
  const app = await context.newPage();
  await app.goto(ctx.server.url);
  await app.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });

  const other = await plainPage(context);
  const outcome = await other.evaluate(() => new Promise((resolve) => {
    let blocked = false;
    const req = indexedDB.open('fonte', 99);
    req.onblocked = () => { blocked = true; };
    req.onsuccess = () => { req.result.close(); resolve({ opened: true, blocked }); };
    req.onerror = () => resolve({ opened: false, error: String(req.error) });
    setTimeout(() => resolve({ opened: false, blocked, timeout: true }), 10_000);
  }));
  assert.deepEqual(outcome, { opened: true, blocked: false }, 'the upgrade was not blocked by the app');
  await app.getByTestId('notice').filter({ hasText: /updated in another tab/ }).waitFor({ timeout: 10_000 });
  await context.close();
});

test('an older connection in another tab blocks the app\'s upgrade: the app says so, then goes on', async () => {
  const context = await ctx.browser.newContext({ locale: 'en' });
  const other = await plainPage(context);
  // Version 1 (no stores), held open and deaf to versionchange.
  await other.evaluate(() => new Promise((resolve, reject) => {
    const req = indexedDB.open('fonte', 1);
    req.onsuccess = () => { window.held = req.result; resolve(); };
    req.onerror = () => reject(req.error);
  }));
  const app = await context.newPage();
  await app.goto(ctx.server.url);
  await app.getByTestId('notice').filter({ hasText: /open in another tab/ }).waitFor({ timeout: 20_000 });
  await other.evaluate(() => window.held.close());
  await app.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached', timeout: 20_000 });
  await context.close();
});
