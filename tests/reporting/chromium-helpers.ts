/**
 * Debian's headless Chromium for the reporting tests, offline: every request a
 * page makes is intercepted, and the only one allowed is the file itself.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';

export const CHROMIUM = '/usr/bin/chromium';
/** Why the Chromium tests skip here, or false when they can run. */
export const NO_CHROMIUM = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (.ci/run installs Debian's chromium)`;
/** Screenshots a person looks at (reports/ is ignored by git). */
export const SHOTS = resolve('reports', 'test-screenshots');
/** A laptop's width: the reports must fit it without a horizontal scrollbar. */
export const LAPTOP = { width: 1400, height: 1000 };

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** Opens a file at a laptop's size, recording every request it makes and aborting all but the file itself. */
export async function openOffline(browser: Browser, file: string): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage({ viewport: LAPTOP });
  const requests: string[] = [];
  const self = pathToFileURL(file).href;
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    requests.push(url);
    if (url === self) await route.continue();
    else await route.abort();
  });
  await page.goto(self, { waitUntil: 'load' });
  return { page, requests };
}
