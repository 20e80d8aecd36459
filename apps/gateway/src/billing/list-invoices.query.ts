import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ListQueryDto } from '@xaalis/http';
import { INVOICE_STATUSES, LIST_CURSOR_MAX_LENGTH, type InvoiceStatus } from '@xaalis/kernel';

/** Spec 4.2 and CONTRACT 4: `GET /v1/invoices?subscription&status&limit&starting_after`. */
export class ListInvoicesQuery extends ListQueryDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: LIST_CURSOR_MAX_LENGTH,
    description: 'Only the invoices of this subscription',
    example: 'sub_01JD8ZP5V6W7X8Y9Z0A1B2C3D4',
  })
  @IsOptional()
  @IsString()
  @Length(1, LIST_CURSOR_MAX_LENGTH)
  subscription?: string;

  @ApiPropertyOptional({ enum: INVOICE_STATUSES })
  @IsOptional()
  @IsIn(INVOICE_STATUSES)
  status?: InvoiceStatus;
}
