/** Installs the error and not-found handlers: every failure leaves as JSON `{"detail": …}`. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { RastileError } from '../errors.ts';
import { errorBody, STATUS_BY_KIND } from './error-status.ts';
import { RequestValidationError } from './validation/issues.ts';

export function installErrorHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send({ detail: 'Not Found' });
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof RequestValidationError) {
      return reply.code(422).type('application/json').send(JSON.stringify({ detail: error.issues }));
    }
    if (error instanceof RastileError) {
      const status = STATUS_BY_KIND[error.kind];
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      if (status === 204) return reply.code(204).send();
      return reply.code(status).send(errorBody(error, request.query));
    }
    const fastifyError = error as Partial<FastifyError>;
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error instanceof SyntaxError && fastifyError.statusCode === 400)) {
      return reply.code(422).send({
        detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: fastifyError.message ?? 'invalid JSON' } }],
      });
    }
    if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      return reply.code(fastifyError.statusCode).send({ detail: fastifyError.message ?? 'Bad Request' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });
}
