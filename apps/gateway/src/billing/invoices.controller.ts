import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  BILLING_INVOICE_GET,
  BILLING_INVOICE_LIST,
  InvoiceReply,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiListResponse, asListResponse } from '@xaalis/http';
import { ApiCaller, ApiKeyAuth, RequireScope } from '@xaalis/identity';
import { ListInvoicesQuery } from './list-invoices.query';

/** Spec 4.2 and CONTRACT 5: the invoices of the caller's merchant and mode, read only. */
@ApiTags('invoices')
@Controller('v1/invoices')
@ApiKeyAuth()
export class InvoicesController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  @ApiOperation({ summary: 'Retrieve an invoice' })
  @Get(':id')
  @RequireScope('invoices', 'read')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: InvoiceReply, description: 'The invoice (spec 2.4).' })
  get(@ApiCaller() caller: ApiCaller, @Param('id') id: string) {
    return request(this.bus, BILLING_INVOICE_GET, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      invoice_id: id,
    });
  }

  @ApiOperation({ summary: 'List invoices, newest first' })
  @Get()
  @RequireScope('invoices', 'read')
  @ApiListResponse(
    InvoiceReply,
    'Invoices, newest first (CONTRACT 4); `subscription` and `status` filter.',
  )
  async list(@ApiCaller() caller: ApiCaller, @Query() query: ListInvoicesQuery) {
    const page = await request(this.bus, BILLING_INVOICE_LIST, {
      merchant_id: caller.merchantId,
      mode: caller.mode,
      limit: query.limit,
      starting_after: query.starting_after,
      subscription: query.subscription,
      status: query.status,
    });
    return asListResponse(page);
  }
}
