import type { LaunchOptions } from '@playwright/test';

/**
 * How the journeys, the benches and their tools start Chromium: Debian's build (CHROMIUM_PATH to use another), no
 * sandbox inside containers, no GPU, and no calls home (updates, sync, QUIC probes).
 */
export const CHROMIUM_LAUNCH_OPTIONS: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
