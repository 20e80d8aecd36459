import { ApiProperty } from '@nestjs/swagger';
import { AgentKeyObjectReply } from '@xaalis/contracts';

/** CONTRACT 5: `POST /v1/agent-wallets/{id}/keys`, the key with its secret. */
export class IssuedAgentKeyResponse extends AgentKeyObjectReply {
  /**
   * Made by the gateway, never sent to the payouts app; the HTTP answer keeps it out of the
   * idempotency store, so a replay of the request shows the key without it
   * (apps/gateway/src/common/secret-once.ts).
   */
  @ApiProperty({
    required: false,
    example: 'ak_test_h0Agj8AUxyk3x1GRniG88rvhkmdvNssZ',
    description: 'Shown this once: absent from a replay of the request, never retrievable',
  })
  secret_key!: string;
}
