export const IDEMPOTENT = 'xaalis:idempotent';

export interface IdempotentOptions {
  /** Spec 4 marks the header required on most writes; its absence is then a 400. */
  required: boolean;
}
