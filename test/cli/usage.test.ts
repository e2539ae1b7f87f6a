/**
 * The real `rastile` command line (bin/rastile.js through tsx): --version, per-command --help
 * listing every flag of the table, one-line usage errors with exit code 2 (unknown option with a
 * suggestion, bad value, busy port), `info` of a file outside any local root, and the start-up
 * banner of `serve --local-roots DIR` whose links answer 200.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { INFO_FLAGS, SERVE_FLAGS } from '../../src/cli/flags.ts';
import { startCli } from '../helpers/cli-server.ts';
import { fixture, REPO } from '../helpers/test-server.ts';

const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function rastile(args: string[], cwd = REPO): Promise<Run> {
  try {
    const r = await promisify(execFile)(process.execPath, [path.join(REPO, 'bin', 'rastile.js'), ...args], {
      cwd,
      env: { ...process.env, RASTILE_FROM_SOURCE: '1' },
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A usage error: exit 2, nothing on stdout, exactly one line on stderr. */
function usageError(r: Run): string {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /); // no stack trace
  return lines[0]!;
}

let tmp: string;
before(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'rastile-cli-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('rastile command line', () => {
  it('--version prints the package version', async () => {
    const r = await rastile(['--version']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, new RegExp(`^rastile ${pkg.version.replace(/\./g, '\\.')} `));
  });

  it('serve --help and info --help list every flag of their table', async () => {
    for (const [cmd, flags] of [
      ['serve', SERVE_FLAGS],
      ['info', INFO_FLAGS],
    ] as const) {
      const r = await rastile([cmd, '--help']);
      assert.equal(r.code, 0);
      for (const f of flags) assert.match(r.stdout, new RegExp(`--${f.name}\\b`), `${cmd} --help lacks --${f.name}`);
    }
    assert.ok(SERVE_FLAGS.some((f) => f.name === 'workers'));
  });

  it('an unknown option says which one and suggests the right one', async () => {
    assert.equal(usageError(await rastile(['serve', '--prot', '1'])), "rastile: unknown option --prot for 'serve'; did you mean --port?");
    assert.match(usageError(await rastile(['info', '--workers', '2', 'x.tif'])), /--workers .*'rastile serve'/);
    assert.match(usageError(await rastile(['serv'])), /did you mean 'rastile serve'\?/);
    assert.equal(usageError(await rastile(['serve', '--worker-mode', 'fibers'])), "rastile: --worker-mode must be threads or processes, got 'fibers'");
  });

  it('a bad or missing value says what is expected', async () => {
    assert.equal(usageError(await rastile(['serve', '--port', 'abc'])), "rastile: --port must be an integer from 0 to 65535, got 'abc'");
    assert.match(usageError(await rastile(['serve', '--port'])), /--port needs a value/);
    assert.match(usageError(await rastile(['serve', '--workers', '0'])), /--workers must be an integer from 1/);
  });

  it('a busy port: "port N is in use: try --port M", exit 2, with one worker and with several', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      for (const workers of ['1', '2']) {
        const line = usageError(await rastile(['serve', '--port', String(port), '--workers', workers]));
        const m = /^rastile: port (\d+) is in use: try --port (\d+)$/.exec(line);
        assert.ok(m, line);
        assert.equal(Number(m[1]), port);
        assert.ok(Number(m[2]) > port);
      }
    } finally {
      busy.close();
    }
  });

  it('info reads the file the user names, outside the current directory and the demo', async () => {
    const dir = path.join(tmp, 'elsewhere');
    mkdirSync(dir);
    copyFileSync(fixture('datasets', 'int16_scale_laea.tif'), path.join(dir, 'mine.tif'));
    const expected = JSON.parse(readFileSync(fixture('datasets', 'expected.json'), 'utf8')) as { files: Record<string, { info: unknown }> };
    const r = await rastile(['info', 'elsewhere/mine.tif'], tmp);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), expected.files['int16_scale_laea.tif']!.info);
  });
});

describe('rastile serve --local-roots: start-up banner', () => {
  it('links to the first GeoTIFF in the roots (the demo is outside), and those links answer 200', async () => {
    const root = path.join(tmp, 'served');
    mkdirSync(path.join(root, 'b'), { recursive: true });
    copyFileSync(fixture('datasets', 'palette_3413.tif'), path.join(root, 'b', 'pal.tif'));
    const server = await startCli(['--workers', '1', '--local-roots', root]);
    try {
      let out = server.output();
      for (let i = 0; i < 100 && !/map:/.test(out); i++) {
        await new Promise((r) => setTimeout(r, 100));
        out = server.output();
      }
      assert.match(out, new RegExp(`Local roots: ${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.match(out, /Network: public hosts only/);
      assert.doesNotMatch(out, /rastile-demo\.tif/);
      const links = [...out.matchAll(/(?:info|statistics|map): +(http:\/\/\S+)/g)].map((m) => m[1]!);
      assert.equal(links.length, 3, out);
      for (const link of links) {
        assert.ok(link.includes(encodeURIComponent(path.join(root, 'b', 'pal.tif'))), link);
        const r = await fetch(link);
        await r.arrayBuffer();
        assert.equal(r.status, 200, link);
      }
      // The start-up log (JSON on stdout) names the roots and the network policy.
      const log = out.split('\n').find((l) => l.includes('local roots and network policy'));
      assert.ok(log, out);
      assert.deepEqual((JSON.parse(log) as { localRoots: string[] }).localRoots, [root]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
