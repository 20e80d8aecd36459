import type { PublicInvoiceReply } from '@xaalis/contracts';

type Overrides = Partial<Omit<PublicInvoiceReply, 'invoice'>> & {
  invoice?: Partial<PublicInvoiceReply['invoice']>;
};

/** An open, payable test-mode invoice of a monthly subscription; override what a test is about. */
export const newPublicInvoice = ({
  invoice,
  ...overrides
}: Overrides = {}): PublicInvoiceReply => ({
  invoice: {
    id: 'in_01JD8ZP5V6W7X8Y9Z0A1B2C3D40000',
    object: 'invoice',
    livemode: false,
    subscription: 'sub_01JD8ZP5V6W7X8Y9Z0A1B2C3D4',
    period_index: 0,
    period_start: '2026-11-01T09:00:00.000Z',
    period_end: '2026-12-01T09:00:00.000Z',
    amount: 15_000,
    currency: 'XOF',
    status: 'open',
    payment: null,
    hosted_invoice_url: 'http://127.0.0.1/invoices/in_01JD8ZP5V6W7X8Y9Z0A1B2C3D40000/pay',
    due_at: '2026-11-04T09:00:00.000Z',
    grace_ends_at: '2026-11-18T09:00:00.000Z',
    paid_at: null,
    reminders_sent: 0,
    created_at: '2026-11-01T09:00:00.000Z',
    ...invoice,
  },
  merchant_name: 'Boutique Awa',
  description: 'Abonnement fibre',
  interval: 'month',
  interval_count: 1,
  payable: true,
  overdue: false,
  ...overrides,
});
