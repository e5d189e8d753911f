import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { AuthService } from '../../application/auth.service';

/** Registers the 'auth.link-request' job: the service mails the link asked for. */
@Injectable()
export class AuthLinkRequestProcessor implements OnModuleInit {
  constructor(
    private readonly processors: JobProcessors,
    private readonly auth: AuthService,
  ) {}

  onModuleInit(): void {
    this.processors.register('auth.link-request', (request) => this.auth.deliverLinkRequest(request));
  }
}
