import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { earthdataAuth, earthdataAuthOptionsFromEnv, parseExpiry } from '../../src/sources/earthdata-auth.ts';
import type { SourceOptions } from '../../src/sources/options.ts';
import { listenOnLoopback } from '../helpers/local-server.ts';

/** A stand-in for Earthdata Login's token endpoint (POST /api/users/find_or_create_token, HTTP Basic). */
async function startUrs(opts: { user: string; password: string; expiry: () => string; failFirst?: number }) {
  const calls: Array<{ method: string; path: string; authorization: string | undefined; accept: string | undefined }> = [];
  let issued = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    calls.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, accept: req.headers.accept });
    if (calls.length <= (opts.failFirst ?? 0)) return void res.writeHead(503).end('busy');
    if (req.method !== 'POST' || req.url !== '/api/users/find_or_create_token') return void res.writeHead(404).end();
    const expected = `Basic ${Buffer.from(`${opts.user}:${opts.password}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_credentials"}');
      return;
    }
    issued++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: `token-${issued}`, token_type: 'Bearer', expiration_date: opts.expiry() }));
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, calls, close };
}

const DATA = new URL('https://data.lpdaac.earthdatacloud.nasa.gov/lp-prod-protected/x.tif');

describe('earthdataAuth: username/password exchanged at a URS stand-in', () => {
  let urs: Awaited<ReturnType<typeof startUrs>>;
  let clock = Date.UTC(2024, 5, 1, 12);
  before(async () => (urs = await startUrs({ user: 'alice', password: 'p@ss:word', expiry: () => '06/30/2024' })));
  after(() => urs.close());

  it('sends the token only to allowed https hosts, fetching it once', async () => {
    const auth = earthdataAuth({ username: 'alice', password: 'p@ss:word', urs: urs.url, now: () => clock });
    assert.equal(await auth.authHeaders(DATA), undefined, 'no host allowed yet');
    assert.equal(urs.calls.length, 0, 'no token fetched for a host that will not receive it');
    auth.allowHost('data.lpdaac.earthdatacloud.nasa.gov');
    const results = await Promise.all([1, 2, 3].map(() => auth.authHeaders(DATA)));
    assert.deepEqual(results, Array(3).fill({ authorization: 'Bearer token-1' }), 'bearer token');
    assert.equal(urs.calls.length, 1, 'concurrent callers share one exchange');
    assert.deepEqual(
      urs.calls[0],
      {
        method: 'POST',
        path: '/api/users/find_or_create_token',
        authorization: `Basic ${Buffer.from('alice:p@ss:word').toString('base64')}`,
        accept: 'application/json',
      },
      'HTTP Basic POST',
    );
    assert.equal(await auth.authHeaders(new URL('http://data.lpdaac.earthdatacloud.nasa.gov/x.tif')), undefined, 'never over http');
    assert.equal(await auth.authHeaders(new URL('https://cmr.earthdata.nasa.gov/search/granules.umm_json')), undefined, 'never to CMR');
    assert.equal(
      await auth.authHeaders(new URL('https://lp-prod-protected.s3.us-west-2.amazonaws.com/x.tif?X-Amz-Signature=1')),
      undefined,
      'never to a redirect target',
    );
    assert.deepEqual(
      await auth.authHeaders(new URL('https://DATA.lpdaac.earthdatacloud.nasa.gov:443/y.tif')),
      { authorization: 'Bearer token-1' },
      'host names are case-insensitive',
    );
    assert.equal(urs.calls.length, 1, 'still one exchange');
  });

  it('refreshes the token 5 minutes before it expires', async () => {
    const from = urs.calls.length;
    const auth = earthdataAuth({ username: 'alice', password: 'p@ss:word', urs: urs.url, dataHosts: [DATA.host], now: () => clock });
    const first = await auth.authHeaders(DATA);
    clock = Date.UTC(2024, 5, 29, 23, 54);
    assert.deepEqual(await auth.authHeaders(DATA), first, 'six minutes before expiry: cached');
    clock = Date.UTC(2024, 5, 29, 23, 56);
    const second = await auth.authHeaders(DATA);
    assert.notDeepEqual(second, first, 'four minutes before expiry: a new token');
    assert.equal(urs.calls.length - from, 2, 'two exchanges');
  });

  it('a refused password → SourceForbidden, without the password in the message', async () => {
    const auth = earthdataAuth({ username: 'alice', password: 'wrong-secret', urs: urs.url, dataHosts: [DATA.host] });
    await assert.rejects(
      auth.authHeaders(DATA),
      (err: unknown) => isRastileError(err, 'SourceForbidden') && !err.message.includes('wrong-secret') && /HTTP 401/.test(err.message),
      'forbidden',
    );
  });
});

describe('earthdataAuth: other cases', () => {
  it('retries a failing URS and then succeeds; a fixed token needs no URS', async () => {
    const urs = await startUrs({ user: 'bob', password: 'pw', expiry: () => 'not a date', failFirst: 1 });
    try {
      const auth = earthdataAuth({ username: 'bob', password: 'pw', urs: urs.url, dataHosts: [DATA.host] });
      assert.deepEqual(await auth.authHeaders(DATA), { authorization: 'Bearer token-1' }, 'after one retry');
      assert.equal(urs.calls.length, 2, '503 then 200');
    } finally {
      await urs.close();
    }
    const fixed = earthdataAuth({ token: 'edl-token', dataHosts: [DATA.host], fetch: () => Promise.reject(new Error('must not be called')) });
    assert.deepEqual(await fixed.authHeaders(DATA), { authorization: 'Bearer edl-token' }, 'EARTHDATA_TOKEN');
    const nothing = earthdataAuth({ dataHosts: [DATA.host] });
    assert.equal(await nothing.authHeaders(DATA), undefined, 'no credentials: no header');
  });

  it('plugs into SourceOptions.authHeaders', () => {
    const hook: SourceOptions['authHeaders'] = earthdataAuth({ token: 't' }).authHeaders;
    assert.equal(typeof hook, 'function', 'type-compatible hook');
  });

  it('parseExpiry reads URS dates as 00:00 UTC', () => {
    assert.equal(parseExpiry('06/30/2024'), Date.UTC(2024, 5, 30), 'MM/DD/YYYY');
    assert.equal(parseExpiry('2024-06-30T12:00:00Z'), Date.UTC(2024, 5, 30, 12), 'ISO');
    assert.equal(parseExpiry('soon'), undefined, 'unreadable');
  });

  it('earthdataAuthOptionsFromEnv', () => {
    assert.deepEqual(earthdataAuthOptionsFromEnv({ EARTHDATA_TOKEN: 'abc' }), { token: 'abc' }, 'token');
    assert.deepEqual(
      earthdataAuthOptionsFromEnv({ EARTHDATA_USERNAME: 'u', EARTHDATA_PASSWORD: 'p', EARTHDATA_DATA_HOSTS: 'a.test, b.test' }),
      {
        username: 'u',
        password: 'p',
        dataHosts: ['a.test', 'b.test'],
      },
      'username/password and hosts',
    );
    assert.deepEqual(
      earthdataAuthOptionsFromEnv({ TITILER_CMR_EARTHDATA_USERNAME: 'u', TITILER_CMR_EARTHDATA_PASSWORD: 'p' }),
      { username: 'u', password: 'p' },
      'titiler-cmr names',
    );
    assert.equal(earthdataAuthOptionsFromEnv({ EARTHDATA_USERNAME: 'u' }), undefined, 'incomplete');
  });
});
