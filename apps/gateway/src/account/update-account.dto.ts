import { ApiProperty } from '@nestjs/swagger';
import { IsHttpsUrl, URL_MAX_LENGTH } from '@xaalis/http';

export class UpdateAccountDto {
  @ApiProperty({
    format: 'uri',
    maxLength: URL_MAX_LENGTH,
    example: 'https://shop.example.sn/xaalis/webhooks',
  })
  @IsHttpsUrl()
  webhook_url!: string;
}
