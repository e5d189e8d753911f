import { Injectable, type OnModuleInit } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { AuthService } from '../../application/auth.service';

/** Registers the 'auth.link-request' job: the service mails the link asked for, in a MikroORM context of its own. */
@Injectable()
export class AuthLinkRequestProcessor implements OnModuleInit {
  constructor(
    private readonly processors: JobProcessors,
    private readonly auth: AuthService,
    private readonly orm: MikroORM,
  ) {}

  onModuleInit(): void {
    this.processors.register('auth.link-request', (request) => RequestContext.create(this.orm.em, () => this.auth.deliverLinkRequest(request)));
  }
}
