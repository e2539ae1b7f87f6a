/**
 * The README holds up: its relative links point at files in the repository, its URL-building
 * examples need no Python (the `node -e` line run as written gives the encoded demo path), and the
 * test prerequisites name every Debian package `.ci/run` installs.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from '../helpers/test-server.ts';

const README = readFileSync(path.join(REPO, 'README.md'), 'utf8');

describe('README', () => {
  it('relative links point at files in the repository', () => {
    const links = [...README.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    assert.ok(links.includes('docs/architecture.md'));
    for (const l of links) {
      assert.ok(!l.startsWith('..'), `${l} leaves the repository`);
      assert.ok(existsSync(path.join(REPO, l)), `${l} does not exist`);
    }
  });

  it('builds URLs with node, not python3, and the line works as written', () => {
    assert.doesNotMatch(README, /python3 -c/);
    const line = /^U=\$\(node -e '(.+)'\)$/m.exec(README);
    assert.ok(line);
    const out = execFileSync(process.execPath, ['-e', line[1]!], { cwd: REPO, encoding: 'utf8' }).trim();
    assert.equal(out, encodeURIComponent(path.join(REPO, 'demo', 'rastile-demo.tif')));
  });

  it('names every Debian package .ci/run installs', () => {
    const ci = readFileSync(path.join(REPO, '.ci', 'run'), 'utf8');
    const packages = [...ci.matchAll(/need\+=\(([^)]+)\)/g)].flatMap((m) => m[1]!.trim().split(/\s+/));
    assert.ok(packages.includes('python3-numexpr'));
    for (const p of packages) assert.ok(README.includes(`\`${p}\``), `README does not name ${p}`);
  });
});
