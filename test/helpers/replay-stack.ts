/**
 * The servers every replay test starts: a Range server over ../shared/fixtures/cmr/data (the
 * granules' bytes), a CMR side (the recorded exchanges, `startCmrReplay`, or the stand-in,
 * `startCmrStandin`) given that server's URL, and rastile pointed at that CMR. Call it in a
 * `describe`: it registers the `before` that starts them and the `after` that stops them (rastile
 * first), and returns the stack, filled once `before` has run.
 *
 * ```ts
 * const stack = replayStack((dataHost) => startCmrReplay({ recordings: ['…'], dataHost }));
 * it('…', async () => { await stack.server.get('/raster/…'); stack.cmr.unmatched; });
 * ```
 */
import { after, before } from 'node:test';
import { CMR_DATA_DIR } from './cmr-replay.ts';
import { startRangeServer, type RangeServer } from './http-range-server.ts';
import { startTestServer, type TestServer } from './test-server.ts';

interface CmrServer {
  url: string;
  close(): Promise<void>;
}

export interface ReplayStack<C extends CmrServer> {
  /** The granule data server (also started for tests that read no granule: one idle socket). */
  data: RangeServer;
  cmr: C;
  server: TestServer;
}

/** `startCmr` gets the data server's URL (`http://127.0.0.1:<port>`), for the granules' hrefs. */
export function replayStack<C extends CmrServer>(startCmr: (dataHost: string) => Promise<C>): ReplayStack<C> {
  const stack = {} as ReplayStack<C>;
  before(async () => {
    stack.data = await startRangeServer({ root: CMR_DATA_DIR });
    stack.cmr = await startCmr(stack.data.url);
    stack.server = await startTestServer((c) => {
      c.cmrUrl = stack.cmr.url;
    });
  });
  after(async () => {
    await stack.server?.close();
    await stack.cmr?.close();
    await stack.data?.close();
  });
  return stack;
}
