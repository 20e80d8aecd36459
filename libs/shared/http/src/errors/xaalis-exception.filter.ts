import type { ServerResponse } from 'node:http';
import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  Injectable,
  Logger,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response';
import { isResponseSent, sendJson } from './send-json';

/**
 * Every failure of every route, and those Fastify raises before a route runs (unknown route, body
 * too large, wrong media type, malformed JSON), leaves through here as the CONTRACT 2 envelope.
 * Unexpected errors are logged with their stack and answered with a generic message only; a
 * database out of reach (503) is logged in one line.
 */
@Catch()
@Injectable()
export class XaalisExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest | undefined>();
    const response = http.getResponse<FastifyReply | ServerResponse>();
    const outcome = toErrorResponse(exception);
    if (outcome.unexpected) {
      // The path only: a query string may carry a client secret (`?cs=`).
      const where = request
        ? `${request.method} ${request.url.split('?')[0]} (${request.id})`
        : 'a request';
      if (outcome.body.error.code === 'unavailable') {
        // A database out of reach: one line a request, not a stack each, so an outage's log
        // stays readable.
        this.logger.warn(`Database out of reach on ${where}: ${messageOf(exception)}`);
      } else {
        const trace = exception instanceof Error ? exception.stack : String(exception);
        this.logger.error(`Unexpected error on ${where}`, trace);
      }
    }
    if (isResponseSent(response)) return;
    sendJson(response, outcome.status, JSON.stringify(outcome.body), outcome.headers);
  }
}

/**
 * An error's message on one line. Duck-typed: under Jest, the errors of Node's sockets are
 * another realm's `Error`.
 */
function messageOf(exception: unknown): string {
  const message =
    typeof exception === 'object' && exception !== null && 'message' in exception
      ? String(exception.message)
      : String(exception);
  return message.replace(/\s+/g, ' ').trim();
}
