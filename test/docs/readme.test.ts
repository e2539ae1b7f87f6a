/**
 * The README holds up: its relative links point at files in the repository, its URL-building
 * examples need no Python (the `node -e` line run as written gives the encoded demo path), the
 * test prerequisites name every Debian package `.ci/run` installs, and its STAC examples run as
 * written against a real server on the item shipped in demo/ (answers equal /cog's on the COG).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
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
    const shell = [...README.matchAll(/```bash\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'));
    assert.ok(shell.length > 20);
    for (const l of shell) assert.doesNotMatch(l, /\bpython3?\b/, `a shell example runs Python: ${l}`);
    const line = /^U=\$\(node -e '(.+)'\)$/m.exec(README);
    assert.ok(line);
    const out = execFileSync(process.execPath, ['-e', line[1]!], { cwd: REPO, encoding: 'utf8' }).trim();
    assert.equal(out, encodeURIComponent(path.join(REPO, 'demo', 'rastile-demo.tif')));
  });

  it('names the Debian packages of the Python modules the fixture scripts import', () => {
    const deb: Record<string, string> = {
      osgeo: 'python3-gdal',
      netCDF4: 'python3-netcdf4',
      h5py: 'python3-h5py',
      zarr: 'python3-zarr',
      xarray: 'python3-xarray',
      numcodecs: 'python3-numcodecs',
    };
    const scripts = [path.join(REPO, 'scripts'), path.join(REPO, 'scripts', 'fixtures')].flatMap((d) =>
      readdirSync(d)
        .filter((f) => f.endsWith('.py'))
        .map((f) => readFileSync(path.join(d, f), 'utf8')),
    );
    const imported = new Set(scripts.flatMap((t) => [...t.matchAll(/^\s*(?:import|from) (\w+)/gm)].map((m) => m[1]!)));
    assert.ok(imported.has('netCDF4') && imported.has('osgeo'));
    for (const [module, p] of Object.entries(deb)) if (imported.has(module)) assert.ok(README.includes(`\`${p}\``), `README does not name ${p} (${module})`);
  });

  it("package.json engines: the supported lines, each version of which every installed package's engines admit", () => {
    const semver = createRequire(import.meta.url)('semver') as {
      subset(sub: string, sup: string): boolean;
      satisfies(version: string, range: string): boolean;
      minVersion(range: string): { version: string } | null;
    };
    const ours = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const bad: string[] = [];
    let checked = 0;
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        if (name.startsWith('.')) continue;
        const p = path.join(dir, name);
        if (name.startsWith('@')) {
          walk(p);
          continue;
        }
        const pj = path.join(p, 'package.json');
        if (!existsSync(pj)) continue;
        const j = JSON.parse(readFileSync(pj, 'utf8')) as { name: string; version: string; engines?: { node?: unknown } };
        const range = j.engines?.node;
        if (typeof range === 'string') {
          checked++;
          if (!semver.subset(ours, range)) bad.push(`${j.name}@${j.version} needs node ${range}`);
        }
        if (existsSync(path.join(p, 'node_modules'))) walk(path.join(p, 'node_modules'));
      }
    };
    walk(path.join(REPO, 'node_modules'));
    assert.ok(checked > 50, `${checked} packages declare engines`);
    assert.deepEqual(bad, [], `engines ${ours} admits Node versions some packages do not support`);
    for (const v of ['22.13.0', '24.0.0']) assert.ok(semver.satisfies(v, ours), v);
    const floor = semver.minVersion(ours)!.version.replace(/\.0$/, '');
    assert.ok(README.includes(`Node.js 22 (≥ ${floor}) or 24`), `README names the floor ${floor}`);
  });

  it('names every Debian package .ci/run installs', () => {
    const ci = readFileSync(path.join(REPO, '.ci', 'run'), 'utf8');
    const packages = [...ci.matchAll(/need\+=\(([^)]+)\)/g)].flatMap((m) => m[1]!.trim().split(/\s+/));
    assert.ok(packages.includes('python3-numexpr'));
    for (const p of packages) assert.ok(README.includes(`\`${p}\``), `README does not name ${p}`);
  });
});

/** The README's `X=$(node -e '…')` lines, run as written from the repository folder. */
function readmeVariables(): Map<string, string> {
  const vars = new Map<string, string>();
  for (const m of README.matchAll(/^(\w+)=\$\(node -e '(.+)'\)$/gm)) {
    vars.set(m[1]!, execFileSync(process.execPath, ['-e', m[2]!], { cwd: REPO, encoding: 'utf8' }).trim());
  }
  return vars;
}

/** The path and query of every README `curl` line on `/stac/…` with the shell variables substituted. */
function readmeStacUrls(vars: Map<string, string>): string[] {
  return [...README.matchAll(/^curl .*"http:\/\/127\.0\.0\.1:8000(\/stac\/[^"]+)"/gm)].map((m) =>
    m[1]!.replace(/\$(\w+)/g, (_, v: string) => {
      const value = vars.get(v);
      assert.ok(value !== undefined, `README uses $${v} without defining it`);
      return value;
    }),
  );
}

const rgba = async (r: Response): Promise<Buffer> =>
  sharp(Buffer.from(await r.arrayBuffer()))
    .ensureAlpha()
    .raw()
    .toBuffer();

describe("README's STAC examples on demo/olinda-landsat7.json", () => {
  const ITEM = path.join(REPO, 'demo', 'olinda-landsat7.json');
  const COG = encodeURIComponent(path.join(REPO, 'demo', 'olinda-landsat7.tif'));
  let server: TestServer;
  let urls: string[];
  before(async () => {
    server = await startTestServer();
    urls = readmeStacUrls(readmeVariables());
  });
  after(() => server.close());
  const find = (route: string): string => {
    const u = urls.find((x) => x.startsWith(route));
    assert.ok(u, `no README example on ${route}`);
    return u;
  };

  it('the item is shipped: its asset href is relative to it, eo:bands name the COG bands', async () => {
    const item = JSON.parse(readFileSync(ITEM, 'utf8')) as { assets: Record<string, { href: string; 'eo:bands': Array<{ common_name: string }> }> };
    assert.deepEqual(Object.keys(item.assets), ['landsat']);
    assert.equal(item.assets['landsat']!.href, './olinda-landsat7.tif');
    assert.deepEqual(
      item.assets['landsat']!['eo:bands'].map((b) => b.common_name),
      ['blue', 'green', 'red', 'nir'],
    );
    const info = await server.getJson<{ count: number }>(`/cog/info?url=${COG}`);
    assert.equal(info.body.count, 4);
    assert.ok(!README.includes('url=item.json'));
    assert.ok(
      urls.every((u) => u.includes(`url=${encodeURIComponent(ITEM)}`)),
      'every /stac example names the shipped item',
    );
  });

  it('every /stac example answers 200', async () => {
    assert.ok(urls.length >= 4, `${urls.length} /stac examples`);
    for (const u of urls) {
      const r = await server.get(u);
      assert.equal(r.status, 200, `${u}: ${await r.text()}`);
      await r.arrayBuffer().catch(() => undefined);
    }
  });

  it('/stac/info: the asset is the COG as /cog/info reads it', async () => {
    const stac = await server.getJson<Record<string, unknown>>(find('/stac/info?'));
    const cog = await server.getJson<Record<string, unknown>>(`/cog/info?url=${COG}`);
    assert.deepEqual(Object.keys(stac.body), ['landsat']);
    assert.deepEqual(stac.body['landsat'], cog.body);
  });

  it("/stac/statistics: the NDVI of bands red,nir equals /cog/statistics' (b4-b3)/(b4+b3)", async () => {
    const stac = await server.getJson<Record<string, Record<string, unknown>>>(find('/stac/statistics?'));
    const cog = await server.getJson<Record<string, Record<string, unknown>>>(`/cog/statistics?url=${COG}&expression=(b4-b3)/(b4%2Bb3)`);
    const { description: _a, ...s } = stac.body['b1']!;
    const { description: _b, ...c } = cog.body['b1']!;
    assert.deepEqual(s, c);
    assert.ok((c['valid_pixels'] as number) > 0);
  });

  it("/stac/tiles: a PNG whose pixels equal /cog's tile of the same NDVI", async () => {
    const u = find('/stac/tiles/');
    const r = await server.get(u);
    assert.equal(r.headers.get('content-type'), 'image/png');
    const stac = await rgba(r);
    const tile = u.slice(0, u.indexOf('?')).replace('/stac/', '/cog/');
    const cog = await rgba(await server.get(`${tile}?url=${COG}&expression=(b4-b3)/(b4%2Bb3)&rescale=-1,1&colormap_name=rdylgn`));
    assert.equal(stac.length, 256 * 256 * 4);
    assert.ok(stac.equals(cog));
    let opaque = 0;
    for (let i = 3; i < stac.length; i += 4) if (stac[i] === 255) opaque++;
    assert.ok(opaque > 256 * 256 * 0.25, `${opaque} opaque pixels: the tile shows the data`);
  });

  it('/stac/renders: true colour and NDVI, both valid tile parameters', async () => {
    const r = await server.getJson<{ renders: Record<string, { valid: boolean }> }>(find('/stac/renders?'));
    assert.deepEqual(Object.keys(r.body.renders).sort(), ['ndvi', 'truecolor']);
    for (const [id, render] of Object.entries(r.body.renders)) assert.equal(render.valid, true, id);
  });
});
