import { randomUUID } from 'node:crypto';
import { creditLedgerContract } from './credit-ledger.contract';
import { InMemoryCreditLedger } from './in-memory-credit-ledger';

describe('InMemoryCreditLedger', () => {
  creditLedgerContract(() => {
    const ledger = new InMemoryCreditLedger();
    return {
      ledger,
      newUser: async () => randomUUID(),
      expireIn: async (sourceRef, ms) => {
        ledger.lotRows.find((lot) => lot.sourceRef === sourceRef)!.expiresAt = new Date(ledger.now.getTime() + ms);
      },
      today: () => ledger.now.toISOString().slice(0, 10),
    };
  });
});
