/**
 * Serves a fixed set of files read once at start-up under `${prefix}/:file` (cached for a day);
 * any other name is the app's JSON 404. Too few files to warrant @fastify/static.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

export interface StaticFile {
  /** Absolute path of the file on disk. */
  path: string;
  /** Content-Type of the response. */
  type: string;
}

export function serveFiles(app: FastifyInstance, prefix: string, files: Readonly<Record<string, StaticFile>>): void {
  const assets = new Map(Object.entries(files).map(([name, f]) => [name, { type: f.type, body: readFileSync(f.path) }]));
  app.get(`${prefix}/:file`, async (request, reply) => {
    const asset = assets.get((request.params as { file: string }).file);
    if (!asset) return reply.callNotFound();
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body);
  });
}
