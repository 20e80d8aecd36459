import type { CreateAgentWalletRequest, UpdateAgentWalletRequest } from '@xaalis/contracts';
import type { Mode } from '@xaalis/kernel';
import type { CreateAgentWalletDto, UpdateAgentWalletDto } from './agent-wallet.dto';

/** Whose wallet, in which mode: the API key's or the dashboard path's. */
interface WalletScope {
  merchantId: string;
  mode: Mode;
}

/** The create message of both routes, `POST /v1/agent-wallets` and its dashboard twin. */
export function createWalletMessage(
  scope: WalletScope,
  agentWalletId: string,
  body: CreateAgentWalletDto,
): CreateAgentWalletRequest {
  return {
    merchant_id: scope.merchantId,
    mode: scope.mode,
    agent_wallet_id: agentWalletId,
    name: body.name,
    provider: body.provider,
    max_payout_amount: body.max_payout_amount,
    max_daily_amount: body.max_daily_amount,
    allowed_recipient_phones: body.allowed_recipient_phones,
  };
}

/**
 * The update message of both PATCH routes, with the fields the client sent and no other: a field
 * present changes the policy (`max_daily_amount: null` removes the cap), so one the client left
 * out must not reach the payouts app even as `undefined`, which the in-process bus would keep.
 * An empty body (or none: the pipe makes it an empty DTO) changes nothing.
 */
export function updateWalletMessage(
  scope: WalletScope,
  agentWalletId: string,
  body: UpdateAgentWalletDto,
): UpdateAgentWalletRequest {
  const message: UpdateAgentWalletRequest = {
    merchant_id: scope.merchantId,
    mode: scope.mode,
    agent_wallet_id: agentWalletId,
  };
  if (body.name !== undefined) message.name = body.name;
  if (body.max_payout_amount !== undefined) message.max_payout_amount = body.max_payout_amount;
  if (body.max_daily_amount !== undefined) message.max_daily_amount = body.max_daily_amount;
  if (body.allowed_recipient_phones !== undefined) {
    message.allowed_recipient_phones = body.allowed_recipient_phones;
  }
  if (body.status !== undefined) message.status = body.status;
  return message;
}
