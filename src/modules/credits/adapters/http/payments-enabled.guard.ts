import { Injectable, type CanActivate } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { PaymentsDisabledError } from '../../domain/credits.errors';

/** Put before the sign-in guard: while payments are off, their routes are 404 for everyone. */
@Injectable()
export class PaymentsEnabledGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (!this.config.payments.enabled) throw new PaymentsDisabledError();
    return true;
  }
}
