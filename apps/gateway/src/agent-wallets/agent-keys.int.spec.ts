import {
  type AgentKeyObjectReply,
  type AgentKeyReply,
  type AgentWalletSpendingReply,
  PAYOUTS_AGENT_KEY_FIND,
  PAYOUTS_AGENT_KEY_REVOKE,
  PAYOUTS_AGENT_WALLET_GET,
} from '@xaalis/contracts';
import { newApiKeySecret } from '@xaalis/identity';
import { describeWithPostgres, sendRawHttp } from '@xaalis/testing';
import { busAnswer, type Gateway, startGateway, zeroBalanceBus } from '../testing/gateway-harness';
import { HttpClient, signUpMerchant } from '../testing/http-client';

const WALLET = 'aw_01JD8ZP5V6W7X8Y9Z0A1B2C3D4';
const KEY = 'agk_01JD8ZP5V6W7X8Y9Z0A1B2C3D4';
const AT = '2026-11-22T10:00:00.000Z';

/**
 * Agent keys at the gateway, the payouts app being the harness's bus: they reach `/v1/agent/...`
 * and nothing else, and no other key reaches it, in whatever form the request target comes.
 *
 * `DELETE /v1/agent-wallets/{id}/keys/{keyId}` refuses the key from its answer on in the gateway
 * that gave it, though that gateway has the key cached and the payouts app's notification (which
 * evicts it on every replica) has not come: the harness's bus sends none.
 * tools/e2e/payouts.e2e.spec.ts runs the real one.
 */
describeWithPostgres('gateway: agent keys', () => {
  let gw: Gateway;
  let http: HttpClient;
  let secretKey: string;
  let agentKey: string;
  let revoked = false;
  const send = zeroBalanceBus.send.bind(zeroBalanceBus);

  beforeAll(async () => {
    gw = await startGateway();
    http = new HttpClient(gw.url);
    const { merchantId, secretKey: issue } = await signUpMerchant(
      http,
      'owner@agents.sn',
      'Boutique Agents',
    );
    secretKey = await issue('test');
    const agent = newApiKeySecret('agent', 'test', gw.config.secretHashKey!);
    agentKey = agent.secret;

    const found: AgentKeyReply = {
      id: KEY,
      merchant_id: merchantId,
      mode: 'test',
      agent_wallet_id: WALLET,
      secret_hash: agent.secretHash,
    };
    const wallet: AgentWalletSpendingReply = {
      id: WALLET,
      object: 'agent_wallet',
      livemode: false,
      name: 'Refunds agent',
      status: 'active',
      provider: 'wave',
      max_payout_amount: 20_000,
      max_daily_amount: null,
      allowed_recipient_phones: ['+221771234567'],
      policy_version: 1,
      created_at: AT,
      updated_at: AT,
      spent_today: 0,
      remaining_today: null,
    };
    const revokedKey: AgentKeyObjectReply = {
      id: KEY,
      object: 'agent_key',
      agent_wallet_id: WALLET,
      livemode: false,
      created_at: AT,
      revoked_at: AT,
    };
    jest.spyOn(zeroBalanceBus, 'send').mockImplementation((pattern: string, data: unknown) => {
      if (pattern === PAYOUTS_AGENT_KEY_FIND)
        return busAnswer({ ok: true, value: { key: revoked ? null : found } });
      if (pattern === PAYOUTS_AGENT_WALLET_GET) return busAnswer({ ok: true, value: wallet });
      if (pattern === PAYOUTS_AGENT_KEY_REVOKE) {
        revoked = true;
        return busAnswer({ ok: true, value: revokedKey });
      }
      return send(pattern, data);
    });
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await gw?.close();
  });

  it('reach /v1/agent alone, and only they do, also when the target is in absolute form', async () => {
    const status = async (path: string, bearer: string) => ({
      origin: await statusOfGet(gw.url, path, bearer, { absoluteForm: false }),
      absolute: await statusOfGet(gw.url, path, bearer, { absoluteForm: true }),
    });
    expect(await status('/v1/agent/wallet', agentKey)).toEqual({ origin: 200, absolute: 200 });
    expect(await status('/v1/agent/wallet', secretKey)).toEqual({ origin: 403, absolute: 403 });
    expect(await status('/v1/balance', agentKey)).toEqual({ origin: 403, absolute: 403 });
  });

  it('a revoked one is refused (401) on its next call, where it was cached and no notification came', async () => {
    const before = await http.call('GET', '/v1/agent/wallet', { bearer: agentKey });
    expect({ status: before.status, id: before.body.id }).toEqual({ status: 200, id: WALLET });
    // Cached: the payouts app is not asked again.
    revoked = true;
    expect((await http.call('GET', '/v1/agent/wallet', { bearer: agentKey })).status).toBe(200);
    revoked = false;

    const revoke = await http.call('DELETE', `/v1/agent-wallets/${WALLET}/keys/${KEY}`, {
      bearer: secretKey,
    });
    expect({ status: revoke.status, revoked_at: revoke.body.revoked_at }).toEqual({
      status: 200,
      revoked_at: AT,
    });
    const after = await http.call('GET', '/v1/agent/wallet', { bearer: agentKey });
    expect({ status: after.status, code: after.body.error?.code }).toEqual({
      status: 401,
      code: 'authentication_required',
    });
  });
});

/** The status of a GET whose target is a path or in absolute form (`GET http://host/path`). */
async function statusOfGet(
  baseUrl: string,
  path: string,
  bearer: string,
  { absoluteForm }: { absoluteForm: boolean },
): Promise<number> {
  const target = absoluteForm ? `${baseUrl}${path}` : path;
  const { status } = await sendRawHttp(
    baseUrl,
    `GET ${target} HTTP/1.1\r\nHost: ${new URL(baseUrl).host}\r\n` +
      `Authorization: Bearer ${bearer}\r\nConnection: close\r\n\r\n`,
  );
  return status;
}
