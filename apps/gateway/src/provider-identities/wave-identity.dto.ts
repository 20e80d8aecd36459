import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

export class WaveIdentityDto {
  @ApiProperty({ description: "The merchant's aggregated merchant id at Wave.", maxLength: 100 })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'must not be blank' })
  aggregated_merchant_id!: string;
}
