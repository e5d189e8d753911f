// A local OAuth 2 / OpenID Connect provider (oauth2-mock-server) in a process of its own: jose's
// key handling does not work inside jest's VM context. The test sets the next userinfo answer
// over IPC ({ profile }) and reads the issuer URL from the first message.
import { OAuth2Server } from 'oauth2-mock-server';

const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
await server.start(0, '127.0.0.1');
let profile = { sub: 'nobody' };
server.service.on('beforeUserinfo', (response) => {
  response.body = profile;
});
process.on('message', (message) => {
  if (message?.profile) profile = message.profile;
  process.send?.({ ok: true });
});
process.on('disconnect', () => void server.stop().then(() => process.exit(0)));
process.send?.({ issuer: server.issuer.url });
