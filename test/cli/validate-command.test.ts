/** `rastile validate <file>`: the /cog/validate report on stdout, exit 0 for a COG and 1 otherwise. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fixture, REPO } from '../helpers/test-server.ts';

const run = (...args: string[]): { status: number | null; report: { COG: boolean; COG_errors: string[] } } => {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin', 'rastile.js'), 'validate', ...args], {
    cwd: REPO,
    env: { ...process.env, RASTILE_FROM_SOURCE: '1', RASTILE_LOCAL_ROOTS: fixture('cogvalidate') },
    encoding: 'utf8',
  });
  return { status: r.status, report: JSON.parse(r.stdout || '{}') as { COG: boolean; COG_errors: string[] } };
};

describe('rastile validate', () => {
  it('a COG: exit 0; --strict with a warning: exit 1', () => {
    const ok = run(fixture('cogvalidate', 'cog_no_overviews.tif'));
    assert.equal(ok.status, 0);
    assert.equal(ok.report.COG, true);
    assert.equal(run('--strict', fixture('cogvalidate', 'cog_no_overviews.tif')).status, 1);
  });
  it('not a COG: exit 1 with the errors', () => {
    const bad = run(fixture('cogvalidate', 'striped_wide.tif'));
    assert.equal(bad.status, 1);
    assert.deepEqual(bad.report.COG_errors, ['The file is greater than 512xH or 512xW, but is not tiled']);
  });
});
