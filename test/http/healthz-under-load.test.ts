/**
 * Long CPU-bound renders yield to the event loop (src/util/cooperate.ts): while a 4096² hillshade
 * tile (warp, algorithm, PNG encode) renders in a server process, /healthz requests sent one after
 * the other keep being answered before the tile is. Counts of answers, no timing: before the
 * renders yielded, the probe sent when the hillshade started waited for the whole render, so only
 * the few probes sent during the tile's I/O were answered (4 in the bench); now hundreds are.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, q } from '../helpers/test-server.ts';

const DEMO = q(path.join(REPO, 'demo', 'rastile-demo.tif'));
const TILE = `/cog/tiles/WebMercatorQuad/9/267/181.png?url=${DEMO}&algorithm=hillshade`;

const SERVER = `
import { configFromEnv } from './src/cli/config-from-env.ts';
import { buildApp } from './src/http/app.ts';
const app = buildApp(configFromEnv({}, { localRoots: './demo' }));
await app.listen({ host: '127.0.0.1', port: 0 });
console.log('PORT ' + app.server.address().port);
`;

describe('health while a big render runs', () => {
  let child: ChildProcess;
  let base = '';
  before(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SERVER], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    base = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
      child.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(d.toString());
        if (m) resolve(`http://127.0.0.1:${m[1]}`);
      });
    });
    // load the modules the big request needs, so that it is busy rendering, not compiling
    await (await fetch(`${base}${TILE}&tilesize=256`)).arrayBuffer();
  });
  after(() => {
    child.kill();
  });

  it('answers /healthz again and again while a 4096² hillshade tile renders', async () => {
    let tileDone = false;
    const big = fetch(`${base}${TILE}&tilesize=4096`).then(async (r) => {
      const body = Buffer.from(await r.arrayBuffer());
      tileDone = true;
      return { status: r.status, body };
    });
    let answered = 0;
    while (!tileDone) {
      const r = await fetch(`${base}/healthz`);
      assert.equal(r.status, 200);
      await r.arrayBuffer();
      if (!tileDone) answered++;
    }
    const tile = await big;
    console.log(`# /healthz answers during the render: ${answered}`);
    assert.equal(tile.status, 200);
    assert.equal(tile.body.subarray(1, 4).toString('latin1'), 'PNG');
    assert.ok(answered >= 50, `only ${answered} /healthz answers came before the tile`);
  });
});
