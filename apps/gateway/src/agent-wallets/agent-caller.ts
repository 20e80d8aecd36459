import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { readRequestContext } from '@xaalis/http';
import type { Mode } from '@xaalis/kernel';

/** A `/v1/agent/...` caller: the agent key the bearer guard authenticated, and its wallet. */
export interface AgentCaller {
  merchantId: string;
  mode: Mode;
  agentKeyId: string;
  agentWalletId: string;
}

/**
 * The bearer guard lets only agent keys reach `/v1/agent/...`, so anything else here is a wiring
 * bug, not a client error: hence a plain Error (500), as the identity library's caller decorators.
 */
export const AgentCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): AgentCaller => {
    const xaalis = readRequestContext(context.switchToHttp().getRequest());
    if (xaalis?.credential.kind !== 'agent_key' || !xaalis.merchantId || !xaalis.mode) {
      throw new Error('AgentCaller used on a route without ApiKeyAuth() under /v1/agent');
    }
    return {
      merchantId: xaalis.merchantId,
      mode: xaalis.mode,
      agentKeyId: xaalis.credential.keyId,
      agentWalletId: xaalis.credential.agentWalletId,
    };
  },
);
