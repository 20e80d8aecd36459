import { ApiProperty } from '@nestjs/swagger';

/** What a provider's webhook or callback gets once it is verified, whatever it changed. */
export class ProviderNotificationReceived {
  @ApiProperty({ type: 'boolean', enum: [true] })
  received!: true;
}
