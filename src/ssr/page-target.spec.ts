import { fakeReply, fakeRequest } from 'test/support/fake-http';
import { pageTarget, refusalOf, sendRefusal } from './page-target';

describe('refusalOf', () => {
  it('refuses targets that name no page of this site, and lets paths through', () => {
    expect(refusalOf(`/levels/${'9'.repeat(8200)}`)).toBe('too-long');
    expect(refusalOf('http://example.com/levels/27')).toBe('absolute-form');
    expect(refusalOf('//example.com/levels')).toBe('double-slash');
    expect(refusalOf('/levels/27?x=1')).toBeNull();
    expect(refusalOf('/')).toBeNull();
  });
});

describe('sendRefusal', () => {
  it('answers 414 in plain text, or in the API error shape on API paths, 400 and 404 in plain text', () => {
    const long = fakeReply();
    sendRefusal(fakeRequest('/levels/x'), long.reply, 'too-long');
    expect(long.sent).toMatchObject({ status: 414, body: 'URI Too Long', headers: { 'content-type': 'text/plain' } });
    const api = fakeReply();
    sendRefusal(fakeRequest('/api/v1/x'), api.reply, 'too-long');
    expect(api.sent).toMatchObject({ status: 414, headers: { 'cache-control': 'no-store' } });
    expect(api.sent.body).toMatchObject({ code: 'HTTP.414' });
    const absolute = fakeReply();
    sendRefusal(fakeRequest('http://x/'), absolute.reply, 'absolute-form');
    expect(absolute.sent).toMatchObject({ status: 400, body: 'Bad Request' });
    const hostLike = fakeReply();
    sendRefusal(fakeRequest('//x'), hostLike.reply, 'double-slash');
    expect(hostLike.sent).toMatchObject({ status: 404, body: 'Not Found' });
  });
});

describe('pageTarget', () => {
  it('tells a payload from its page, keeping the query', () => {
    expect(pageTarget('/levels/27?x=1')).toEqual({ pathname: '/levels/27', search: '?x=1', payload: false, pagePathAndQuery: '/levels/27?x=1' });
    expect(pageTarget('/levels/27/_payload.json?x=1')).toEqual({ pathname: '/levels/27/_payload.json', search: '?x=1', payload: true, pagePathAndQuery: '/levels/27?x=1' });
    expect(pageTarget('/_payload.json')).toMatchObject({ payload: true, pagePathAndQuery: '/' });
  });
});
