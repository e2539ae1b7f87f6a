/**
 * Headless Chromium for page tests (Debian's /usr/bin/chromium driven by playwright-core).
 * Each launch gets a fresh, throw-away user-data dir; WebGL runs on SwiftShader (software GL),
 * so MapLibre renders without a GPU or display.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env['RASTILE_CHROMIUM'] ?? '/usr/bin/chromium';

/** `false` when Chromium is available, else the reason to skip a browser test. */
export const browserSkipReason: string | false = existsSync(CHROMIUM_PATH)
  ? false
  : `needs Chromium at ${CHROMIUM_PATH} (Debian package \`chromium\`, or set RASTILE_CHROMIUM)`;

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // Software WebGL: ANGLE on SwiftShader. Chromium refuses the SwiftShader fallback for WebGL
  // unless it is explicitly allowed.
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
];

export interface HeadlessBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh profile; `close()` ends the browser and removes the profile. */
export async function launchBrowser(viewport = { width: 800, height: 600 }): Promise<HeadlessBrowser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'rastile-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport,
    deviceScaleFactor: 1,
    timeout: 60_000,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
