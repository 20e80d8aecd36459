export {
  sendWebhook,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  USER_AGENT,
  type SendWebhookInput,
  type SendResult,
} from './send-webhook';
export {
  createWebhookAgent,
  DEFAULT_MAX_SOCKETS_PER_ORIGIN,
  DEFAULT_MAX_TOTAL_SOCKETS,
  DEFAULT_IDLE_SOCKET_MS,
  type WebhookAgentOptions,
} from './webhook-agent';
export { describeError, statusFailure, snippet, SNIPPET_MAX_CHARS } from './failure-text';
export * from './testing';
