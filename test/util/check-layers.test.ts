/** scripts/check-layers.js: fails on upward imports, cycles and long files; passes on the real src/. */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const root = path.resolve(import.meta.dirname, '../..');
const script = path.join(root, 'scripts/check-layers.js');
const tmp = mkdtempSync(path.join(tmpdir(), 'rastile-layers-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

function run(dir: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

test('an upward import, a type-only cycle, a dynamic import cycle and a long file each fail, named once', () => {
  const dir = tree('bad', {
    'errors.ts': 'export class E extends Error {}\n',
    // formats may not import readers (multi-line import, type-only)
    'formats/a.ts': "import type {\n  R,\n} from '../readers/r.ts';\nexport type A = R;\n",
    'readers/r.ts': "import type { A } from '../formats/a.ts';\nexport type R = { a?: A };\n",
    // a cycle inside one layer through type-only imports
    'raster/x.ts': "import type { Y } from './y.ts';\nexport interface X { y: Y }\n",
    'raster/y.ts': "import type { X } from './x.ts';\nexport interface Y { x: X }\n",
    // a cycle through a dynamic import and an `export … from`
    'raster/p.ts': "export { q } from './q.ts';\n",
    'raster/q.ts': "export const q = async () => import('./p.ts');\n",
    // a comment that looks like an import is ignored
    'geo/g.ts': "/**\n * import { x } from '../http/h.ts';\n */\nexport const g = 1;\n",
    'util/long.ts': 'export const n = 1;\n'.repeat(401),
    'widgets/w.ts': 'export const w = 1;\n',
  });
  const { status, output } = run(dir);
  assert.equal(status, 1, output);
  const problems = output.split('\n').filter((l) => l.startsWith('  '));
  const has = (re: RegExp) => problems.filter((l) => re.test(l)).length;
  assert.equal(has(/^ {2}formats\/a\.ts: formats may not import readers/), 1, output);
  assert.equal(has(/import cycle: raster\/x\.ts → raster\/y\.ts → raster\/x\.ts/), 1, output);
  assert.equal(has(/import cycle: raster\/p\.ts → raster\/q\.ts → raster\/p\.ts/), 1, output);
  assert.equal(has(/import cycle: formats\/a\.ts → readers\/r\.ts → formats\/a\.ts/), 1, output);
  assert.equal(has(/util\/long\.ts: 401 lines, over 400/), 1, output);
  assert.equal(has(/widgets\/w\.ts: folder 'widgets' is not a layer/), 1, output);
  assert.equal(has(/geo\/g\.ts/), 0, output);
  assert.equal(problems.length, 6, output);
});

test('downward imports pass', () => {
  const dir = tree('good', {
    'errors.ts': 'export class E extends Error {}\n',
    'sources/s.ts': "import { E } from '../errors.ts';\nexport const s = new E();\n",
    'formats/f.ts': "import { s } from '../sources/s.ts';\nexport const f = s;\n",
    'http/h.ts': "import { f } from '../formats/f.ts';\nimport type { Config } from '../config.ts';\nexport const h = (c: Config) => [f, c];\n",
    'config.ts': "import type { S } from './sources/t.ts';\nexport interface Config { s: S }\n",
    'sources/t.ts': 'export type S = number;\n',
  });
  const { status, output } = run(dir);
  assert.equal(status, 0, output);
});

test('the real src/ is layered', () => {
  const out = execFileSync(process.execPath, [script], { cwd: root, encoding: 'utf8' });
  assert.match(out, /is layered/);
});
