export { SIGNATURE_HEADER, EVENT_ID_HEADER, DEFAULT_TOLERANCE_SECONDS } from './headers';
export { computeSignature, signatureHeader, type SignatureHeaderInput } from './sign';
export {
  verifyWebhook,
  parseSignatureHeader,
  type VerifyWebhookInput,
  type WebhookEvent,
  type ParsedSignatureHeader,
} from './verify';
export { WebhookVerificationError, type WebhookVerificationReason } from './verification-error';
