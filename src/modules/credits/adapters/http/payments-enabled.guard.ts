import { Injectable, type CanActivate } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { requirePaymentsEnabled } from '../../application/payments-enabled';

/** Put before the sign-in guard: while payments are off, their routes are 404 for everyone (the rule: payments-enabled.ts). */
@Injectable()
export class PaymentsEnabledGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(): boolean {
    requirePaymentsEnabled(this.config);
    return true;
  }
}
