/**
 * The http(s) GET of remote sources, on node:http/node:https with keep-alive agents: the body's
 * socket Buffers go straight to the reader (no WHATWG stream in between, see
 * notes/decisions.md "Remote reads without web streams"), and every connection's address is
 * checked against the network policy when it is made (`lookup`), so a name that resolves to a
 * public address for the open-time check and to a private one at connect time is refused.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Errors } from '../errors.ts';
import { addressAllowed, type NetworkPolicy } from './network-policy.ts';
import { upstreamAnswered, upstreamFailed } from './upstream-metrics.ts';
import type { HeaderReader, UpstreamResponse } from './upstream-response.ts';

/**
 * Idle kept-alive connections close after this long (undici's own default, which fetch had):
 * object stores and CDNs drop idle connections after a few seconds, and reusing one they dropped
 * costs a failed attempt and a retry. The agent applies it to free sockets only (and shortens it
 * to a server's `Keep-Alive: timeout=` hint); a socket in use is bounded by the request deadline.
 */
const IDLE_SOCKET_MS = 4000;

/** Bodies of discarded answers (redirects, 412, 416) drained for connection reuse up to this size; larger ones close it. */
const DRAIN_LIMIT = 65536;

interface Agents {
  http: HttpAgent;
  https: HttpsAgent;
}

/** One pair of agents per policy: a kept-alive connection was checked under the policy that reuses it. */
const agentsByPolicy = new WeakMap<NetworkPolicy, Agents>();

function agentsFor(policy: NetworkPolicy): Agents {
  let agents = agentsByPolicy.get(policy);
  if (agents === undefined) {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS };
    agents = { http: new HttpAgent(options), https: new HttpsAgent(options) };
    agentsByPolicy.set(policy, agents);
  }
  return agents;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** `lookup` for net.connect: resolves (the policy's connectLookup or dns.lookup), then refuses forbidden addresses. */
function policyLookup(policy: NetworkPolicy): LookupFunction {
  const resolve = policy.connectLookup ?? dnsLookup;
  const checked = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, options, ((err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      if (err !== null) return callback(err, address, family);
      const all = typeof address === 'string' ? [address] : address.map((a) => a.address);
      if (all.some((a) => !addressAllowed(hostname, a, policy))) {
        return callback(Errors.sourceForbidden(`Access to host ${hostname} is not allowed`) as unknown as NodeJS.ErrnoException, address, family);
      }
      callback(null, address, family);
    }) as never);
  };
  return checked as unknown as LookupFunction;
}

const lookups = new WeakMap<NetworkPolicy, LookupFunction>();

function lookupFor(policy: NetworkPolicy): LookupFunction {
  let l = lookups.get(policy);
  if (l === undefined) lookups.set(policy, (l = policyLookup(policy)));
  return l;
}

const ignore = (): void => {};

/**
 * Sends a GET and resolves with the answer once its headers arrived (redirects are not followed:
 * http-request.ts does that hop by hop). Rejects with the network error as node reports it, the
 * lookup's SourceForbidden, or `signal.reason` once aborted. The caller must read or cancel the body.
 */
export function nodeGet(url: URL, headers: Record<string, string>, policy: NetworkPolicy, signal?: AbortSignal): Promise<UpstreamResponse> {
  if (signal?.aborted === true) return Promise.reject(signal.reason);
  const host = url.host;
  const https = url.protocol === 'https:';
  const agents = agentsFor(policy);
  const t0 = performance.now();
  const h: Record<string, string> = { accept: '*/*', ...headers };
  h['accept-encoding'] ??= 'identity';
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const onAbort = (): void => {
      const reason: unknown = signal?.reason;
      req.destroy();
      if (response !== undefined) response.destroy(reason instanceof Error ? reason : new Error('aborted'));
      else reject(reason);
    };
    const detach = (): void => signal?.removeEventListener('abort', onAbort);
    const req = (https ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      headers: h,
      agent: https ? agents.https : agents.http,
      lookup: lookupFor(policy),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => {
      if (response !== undefined) return; // the response reports it
      detach();
      if (signal?.aborted === true) return reject(signal.reason);
      upstreamFailed(host);
      reject(err);
    });
    req.on('response', (res) => {
      response = res;
      res.on('error', ignore); // read() listens while it reads; an error outside it must not crash
      upstreamAnswered(host, res.statusCode ?? 0, t0);
      const encoding = res.headers['content-encoding']?.trim().toLowerCase();
      if ((res.statusCode === 200 || res.statusCode === 206) && encoding !== undefined && encoding !== '' && encoding !== 'identity') {
        // Asked for identity: an encoded body's bytes are not the file's (fetch would have decoded a
        // whole 200 body; a range of an encoded representation cannot be used at all).
        detach();
        res.destroy();
        return reject(Errors.upstream(`${host} answered with Content-Encoding "${encoding}" although identity was asked`));
      }
      resolve(new NodeResponse(res, detach));
    });
    req.end();
  });
}

class NodeResponse implements UpstreamResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderReader;
  private done = false;

  constructor(
    private readonly res: IncomingMessage,
    private readonly detach: () => void,
  ) {
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? '';
    const raw = res.headers;
    this.headers = {
      get(name: string): string | null {
        const v = raw[name.toLowerCase()];
        return typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : null;
      },
    };
  }

  read(onPiece: (piece: Uint8Array) => boolean | void): Promise<void> {
    const res = this.res;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (err?: unknown): void => {
        if (settled) return;
        settled = true;
        res.off('data', onData);
        res.off('end', onEnd);
        res.off('error', onError);
        res.off('close', onClose);
        this.end();
        if (err !== undefined) {
          res.destroy();
          reject(err);
        } else resolve();
      };
      const onData = (b: Buffer): void => {
        let more: boolean | void;
        try {
          more = onPiece(new Uint8Array(b.buffer, b.byteOffset, b.length));
        } catch (err) {
          finish(err);
          return;
        }
        if (more === false) {
          res.destroy();
          finish();
        }
      };
      const onEnd = (): void => finish();
      const onError = (err: Error): void => finish(err);
      const onClose = (): void => {
        if (res.complete) finish();
        else finish(Object.assign(new Error('terminated: the connection closed before the body ended'), { code: 'ECONNRESET' }));
      };
      res.on('data', onData);
      res.on('end', onEnd);
      res.on('error', onError);
      res.on('close', onClose);
      if (res.destroyed) onClose();
    });
  }

  cancel(): Promise<void> {
    const res = this.res;
    this.end();
    if (!res.complete && !res.destroyed) {
      const length = Number(res.headers['content-length'] ?? NaN);
      if (Number.isFinite(length) && length <= DRAIN_LIMIT) res.resume();
      else res.destroy();
    }
    return Promise.resolve();
  }

  private end(): void {
    if (this.done) return;
    this.done = true;
    this.detach();
  }
}
