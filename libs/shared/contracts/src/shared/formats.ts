/** Shapes every bus message shares (CONTRACT 1). */
export const idPattern = (prefix: string): RegExp => new RegExp(`^${prefix}_[0-9A-Za-z]{20,}$`);

/** ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
