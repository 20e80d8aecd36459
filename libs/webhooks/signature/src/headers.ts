/** CONTRACT 1: spec section 6's headers, with the product's name in place of `Service`. */
export const SIGNATURE_HEADER = 'Xaalis-Signature';
export const EVENT_ID_HEADER = 'Xaalis-Event-Id';

/** Spec 8: how far the signed timestamp may be from the receiver's clock. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
