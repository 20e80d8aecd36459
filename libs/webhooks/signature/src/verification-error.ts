export type WebhookVerificationReason =
  | 'missing_header'
  | 'bad_header'
  | 'timestamp_out_of_tolerance'
  | 'no_matching_signature'
  | 'bad_payload';

const MESSAGES: Record<WebhookVerificationReason, string> = {
  missing_header: 'The Xaalis-Signature header is missing.',
  bad_header: 'The Xaalis-Signature header is not of the form t=<unix seconds>,v1=<hex>.',
  timestamp_out_of_tolerance: 'The signature timestamp is too far from the current time.',
  no_matching_signature: 'No signature in the header matches the body and secret.',
  bad_payload: 'The signed body is not a JSON object.',
};

/** Every way verification fails; answer 400 to any of them and do not process the event. */
export class WebhookVerificationError extends Error {
  constructor(readonly reason: WebhookVerificationReason) {
    super(MESSAGES[reason]);
    this.name = 'WebhookVerificationError';
  }
}
