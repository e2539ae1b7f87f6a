/** What a route handler returns (src/http/route.ts), also what the response cache keeps and serves. */
/** What a handler returns: JSON data, or a prepared binary/text body. */
export type HandlerResult =
  | { kind: 'json'; data: unknown; contentType?: string; status?: number; headers?: Record<string, string> }
  | { kind: 'body'; body: Buffer | string; contentType: string; status?: number; headers?: Record<string, string> }
  | { kind: 'redirect'; location: string; status: 301 | 302 | 307 | 308 };
