import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium as the tests drive it: its headless shell (apt chromium-headless-shell), the same engine without
 * the browser's own windows and extensions, which took a fifth of a browser test's time on a 2-core machine.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/** Flags for a closed network: no sandbox (root), and nothing that reaches out on its own. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const WIDE = { width: 1280, height: 800 };
export const NARROW = { width: 375, height: 812 };

/** Debian's Chromium, headless, with a fresh profile and nothing that phones home (the network here is closed). */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's package (apt-get install chromium-headless-shell)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}

export interface PageProbe {
  page: Page;
  context: BrowserContext;
  /**
   * Console errors and warnings. Preact, which hydrates the public site, reports no hydration mismatch:
   * e2e/hydration.test.ts compares the server's DOM with the hydrated one instead.
   */
  problems: string[];
}

export async function openPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; javaScriptEnabled?: boolean } = {},
): Promise<PageProbe> {
  const context = await browser.newContext({
    viewport: options.viewport ?? WIDE,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { page, context, problems };
}

/** Opens a page and waits until it has hydrated, so typing and clicking reach the app. */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('html[data-hydrated]');
}
