/** Installs the error and not-found handlers: every failure leaves as JSON `{"detail": …}`. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { RastileError } from '../errors.ts';
import { errorBody, STATUS_BY_KIND } from './error-status.ts';
import { JsonTooDeepError } from './request-limits.ts';
import { RequestValidationError, type ValidationIssue } from './validation/issues.ts';

/** The 422 body; inputs echoed from a pathological request may not serialise (too deep, cyclic): drop them then. */
function validationBody(issues: ValidationIssue[]): string {
  try {
    return JSON.stringify({ detail: issues });
  } catch {
    return JSON.stringify({ detail: issues.map(({ input: _input, ...rest }) => ({ ...rest, input: null })) });
  }
}

/** Response header naming the request id of a 5xx (the `reqId` of its log lines). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

export function installErrorHandlers(app: FastifyInstance, maxBodyBytes: number): void {
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send({ detail: 'Not Found' });
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof RequestValidationError) {
      return reply.code(422).type('application/json').send(validationBody(error.issues));
    }
    if (error instanceof RastileError) {
      const status = STATUS_BY_KIND[error.kind];
      if (status === 204) return reply.code(204).send();
      const body = errorBody(error, request.query);
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply
          .code(status)
          .header(REQUEST_ID_HEADER, request.id)
          .send({ ...body, request_id: request.id });
      }
      // A client's mistake: for whoever debugs a client, not an operator's alarm.
      request.log.debug({ status, reason: error.message }, 'request rejected');
      return reply.code(status).send(body);
    }
    const fastifyError = error as Partial<FastifyError>;
    if (error instanceof JsonTooDeepError) {
      return reply.code(422).send({
        detail: [{ type: 'json_invalid', loc: ['body'], msg: error.message, input: null, ctx: { max_depth: error.limit } }],
      });
    }
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ detail: `Request body is larger than the limit of ${maxBodyBytes} bytes (RASTILE_MAX_BODY_MB)` });
    }
    if (
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      (error instanceof SyntaxError && fastifyError.statusCode === 400)
    ) {
      return reply.code(422).send({
        detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: fastifyError.message ?? 'invalid JSON' } }],
      });
    }
    if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      return reply.code(fastifyError.statusCode).send({ detail: fastifyError.message ?? 'Bad Request' });
    }
    request.log.error({ err: error }, 'unhandled error');
    // The id the log line carries (`reqId`), so that a user's report leads to it.
    return reply
      .code(500)
      .header(REQUEST_ID_HEADER, request.id)
      .send({ detail: `Internal Server Error (request id ${request.id})`, request_id: request.id });
  });
}
