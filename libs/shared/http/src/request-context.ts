import type { Mode } from '@xaalis/kernel';

/**
 * What the auth guards learn about a request, read by the idempotency layer, the rate limiter and
 * the controllers. Set on the raw request as `request.xaalis`.
 */
export type Credential =
  | { kind: 'secret_key'; keyId: string }
  | { kind: 'restricted_key'; keyId: string; scopes: string[] }
  | { kind: 'agent_key'; keyId: string; agentWalletId: string }
  | { kind: 'session'; userId: string; sessionId: string; role: 'owner' | 'developer' | undefined }
  | { kind: 'client_secret'; paymentId: string }
  | { kind: 'anonymous' };

export interface RequestContext {
  credential: Credential;
  /** Set once the credential (or the dashboard path) names a merchant the caller may act for. */
  merchantId?: string;
  mode?: Mode;
  ip: string;
}

export interface XaalisRequest {
  xaalis?: RequestContext;
}
