/**
 * The README holds up: its relative links point at files in the repository, its URL-building
 * examples need no Python (the `node -e` line run as written gives the encoded demo path), and the
 * test prerequisites name every Debian package `.ci/run` installs, and the STAC examples run as
 * written against the shipped demo item.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, startTestServer, type TestServer } from '../helpers/test-server.ts';

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

/** `curl` lines of the README's Examples block that use the variable `name`, with their URL. */
function curlExamples(name: string): string[] {
  return [...README.matchAll(/^curl (?:-o \S+ )?"(http:\/\/127\.0\.0\.1:8000[^"]+)"/gm)].map((m) => m[1]!).filter((u) => u.includes(`$${name}`));
}

describe('README STAC examples on the demo item', () => {
  let server: TestServer;
  let S: string;
  before(async () => {
    server = await startTestServer();
    // the README's own line for $S, run as written
    const line = /^S=\$\(node -e '(.+)'\)$/m.exec(README);
    assert.ok(line, 'no S=$(node -e ...) line');
    S = execFileSync(process.execPath, ['-e', line[1]!], { cwd: REPO, encoding: 'utf8' }).trim();
    assert.equal(S, encodeURIComponent(path.join(REPO, 'demo', 'rastile-demo-item.json')));
  });
  after(async () => {
    await server?.close();
  });

  const run = (u: string): Promise<Response> => server.get(u.replace('http://127.0.0.1:8000', '').replaceAll('$S', S));
  const cog = (u: string): string =>
    u
      .replace('http://127.0.0.1:8000/stac/', '/cog/')
      .replaceAll('$S', encodeURIComponent(path.join(REPO, 'demo', 'rastile-demo.tif')))
      .replace('&assets=dem', '');

  it('every STAC example answers 200; statistics and tiles are those of the demo COG the asset names', async () => {
    const urls = curlExamples('S');
    assert.ok(urls.length >= 4, JSON.stringify(urls));
    for (const u of urls) {
      const r = await run(u);
      assert.equal(r.status, 200, `${u}: ${await r.clone().text()}`);
      const path_ = new URL(u.replaceAll('$S', S)).pathname;
      if (path_ === '/stac/statistics') {
        // one asset of one band: the statistics of the COG itself (checked against rasterio elsewhere), keyed dem_b1 or b1
        const stac = (await r.json()) as Record<string, Record<string, unknown>>;
        const direct = (await server.getJson<Record<string, Record<string, unknown>>>(cog(u))).body;
        const [sv] = Object.values(stac);
        const [dv] = Object.values(direct);
        assert.deepEqual({ ...sv, description: null }, { ...dv, description: null }, u);
      } else if (path_.startsWith('/stac/tiles/')) {
        const direct = await server.get(cog(u));
        assert.equal(direct.status, 200);
        assert.deepEqual(Buffer.from(await r.arrayBuffer()), Buffer.from(await direct.arrayBuffer()), u);
      } else if (path_ === '/stac/renders') {
        const body = (await r.json()) as { renders: Record<string, { valid: boolean }> };
        assert.deepEqual(Object.keys(body.renders), ['terrain']);
        assert.equal(body.renders['terrain']!.valid, true);
      }
    }
  });
});
