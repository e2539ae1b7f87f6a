/** Which oracles this machine has: tests that compare with them skip when they are missing. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's Python (/usr/bin/python3) can import rasterio. */
export const hasRasterio =
  existsSync('/usr/bin/python3') &&
  (() => {
    try {
      execFileSync('/usr/bin/python3', ['-c', 'import rasterio'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
