import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signpost } from '../src/server/testing/run-cli.ts';
import { gotoHydrated, launchBrowser, NARROW, openPage, WIDE } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;

async function expectNoAxeViolations(page: Page, screen: string) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(
    result.violations.map((v) => `${screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

beforeAll(async () => {
  server = await startServer();
  // The operator's way from the command line: links apart by ';', a label and its address by '='.
  const set = await signpost(
    ['branding', 'set', 'footer_links=Status=https://status.example.com;Privacy=/privacy'],
    server.environment.env,
  );
  expect(set.code, set.stderr).toBe(0);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the public site's frame", () => {
  it("ends every page with a footer of the site's title and the operator's links", async () => {
    const { page, context, problems } = await openPage(browser, { viewport: WIDE });
    for (const path of [
      '/knowledge/',
      '/knowledge/instruction/1',
      '/knowledge/search?query=wifi',
      '/login',
    ]) {
      await gotoHydrated(page, `${server.url}${path}`);
      const footer = page.getByRole('contentinfo');
      expect(await footer.locator('.site-footer-title').innerText(), path).toBe('Lumo Help Centre');
      const links = footer.getByRole('navigation', { name: 'Site links' }).getByRole('link');
      expect(
        await links.evaluateAll((all) => all.map((a) => [a.textContent, a.getAttribute('href')])),
        path,
      ).toEqual([
        ['Status', 'https://status.example.com'],
        ['Privacy', '/privacy'],
      ]);
    }
    expect(problems).toEqual([]);
    // On a short page the footer stands at the foot of the window, not in the middle.
    await gotoHydrated(page, `${server.url}/knowledge/404`);
    const bottom = await page
      .getByRole('contentinfo')
      .evaluate((footer) => [footer.getBoundingClientRect().bottom, innerHeight]);
    expect(bottom[0]).toBeGreaterThanOrEqual((bottom[1] ?? 0) - 1);
    await expectNoAxeViolations(page, 'not found with the footer');
    await context.close();
  });

  it('serves its favicon, and shows its mark beside the title while no logo is uploaded', async () => {
    const { page, context } = await openPage(browser, { viewport: WIDE });
    await gotoHydrated(page, `${server.url}/knowledge/`);
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/favicon.svg');
    const response = await fetch(new URL(icon ?? '', server.url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // The admin app's shell links the same icon.
    const admin = await (await fetch(`${server.url}/admin/`)).text();
    expect(admin).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');

    const mark = page.locator('.site-header .logo-link .logo-mark');
    expect(await mark.isVisible()).toBe(true);
    expect(await mark.getAttribute('aria-hidden')).toBe('true');
    expect(await page.locator('.site-header .logo-link').innerText()).toBe('Lumo Help Centre');
    // The tile is white on the dark header, the signpost in the accent colour.
    expect(await mark.locator('.logo-mark-glyph').evaluate((g) => getComputedStyle(g).fill)).toBe(
      'rgb(11, 92, 173)',
    );
    await context.close();
  });

  it('turns the burger into a close mark while the menu is open, and back', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: NARROW });
    await gotoHydrated(page, `${server.url}/knowledge/`);
    const burger = page.locator('button.burger');
    const lines = () =>
      burger.locator('.burger-icon').evaluate((icon) => ({
        middle: getComputedStyle(icon).backgroundColor,
        top: getComputedStyle(icon, '::before').transform,
        bottom: getComputedStyle(icon, '::after').transform,
      }));
    expect(await burger.getAttribute('aria-expanded')).toBe('false');
    expect(await lines()).toEqual({ middle: 'rgb(255, 255, 255)', top: 'none', bottom: 'none' });

    await burger.click();
    expect(await burger.getAttribute('aria-expanded')).toBe('true');
    expect(await burger.getAttribute('aria-label')).toBe('Close menu');
    expect(await page.locator('.nav-narrow').isVisible()).toBe(true);
    // Two crossed lines: the middle one gone, the others turned a quarter each way (after the short transition).
    await expect
      .poll(lines)
      .toMatchObject({ middle: 'rgba(0, 0, 0, 0)', top: expect.stringMatching(/^matrix\(0\.7/) });
    expect((await lines()).bottom).toMatch(/^matrix\(0\.7/);
    await expectNoAxeViolations(page, 'home with the menu open');

    await burger.click();
    expect(await burger.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('.nav-narrow').isVisible()).toBe(false);
    await expect.poll(lines).toEqual({ middle: 'rgb(255, 255, 255)', top: 'none', bottom: 'none' });

    // The footer fits the phone's width too.
    await gotoHydrated(page, `${server.url}/knowledge/instruction/1`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect(await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).isVisible()).toBe(true);
    await expectNoAxeViolations(page, 'article on a phone');
    expect(problems).toEqual([]);
    await context.close();
  });
});
