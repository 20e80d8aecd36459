import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class CreateMerchantDto {
  @ApiProperty({ minLength: 2, maxLength: 100, example: 'Boutique Ndiaye' })
  @IsString()
  @Length(2, 100)
  name!: string;
}
