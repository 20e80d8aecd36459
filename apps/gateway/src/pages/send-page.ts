import type { FastifyReply } from 'fastify';
import { statusFor } from '@xaalis/http';
import { DomainError } from '@xaalis/kernel';
import { htmlPageHeaders } from './content-security-policy';
import { renderMessagePage } from './message-page';

/**
 * Sends a hosted page with the pages' headers (its CSP nonce, no caching). `render` answering
 * undefined has replied itself (a redirect). A DomainError becomes the message page at its status,
 * in the page's own words (`messageFor`); a rate limit is thrown on, so the edge answers it with
 * its `Retry-After`. Anything else is a bug, thrown on to the edge's 500.
 */
export async function sendPage(
  reply: FastifyReply,
  nonce: string,
  messageFor: (error: DomainError) => { title: string; message: string },
  render: () => Promise<string | undefined>,
): Promise<void> {
  let body: string | undefined;
  let status = 200;
  try {
    body = await render();
    if (body === undefined) return;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.code === 'rate_limited') throw error;
    status = statusFor(error.code);
    body = renderMessagePage({ ...messageFor(error), nonce, status });
  }
  void reply.status(status).headers(htmlPageHeaders(nonce)).send(body);
}
