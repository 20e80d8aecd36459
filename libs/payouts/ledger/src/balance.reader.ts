import { Inject, Injectable } from '@nestjs/common';
import { PRISMA } from '@xaalis/config';
import type { PrismaClient } from '@xaalis/database';
import type { Mode } from '@xaalis/kernel';
import { LEDGER_ACCOUNTS } from '@xaalis/ledger-domain';

export interface Balance {
  available: number;
  pending: number;
}

/** Reads a merchant's balance from the ledger's running totals (zero before any entry). */
@Injectable()
export class BalanceReader {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async balance(merchantId: string, mode: Mode): Promise<Balance> {
    const rows = await this.prisma.ledgerBalance.findMany({
      where: {
        merchantId,
        mode,
        account: { in: [LEDGER_ACCOUNTS.available, LEDGER_ACCOUNTS.pending] },
      },
    });
    const of = (account: string): number =>
      Number(rows.find((row) => row.account === account)?.balance ?? 0n);
    return { available: of(LEDGER_ACCOUNTS.available), pending: of(LEDGER_ACCOUNTS.pending) };
  }
}
