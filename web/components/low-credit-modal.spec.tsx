import en from 'web/i18n/messages/account/en';
import { lowCreditContent } from './low-credit-modal';

describe('low-credit modals', () => {
  it('offers to charge an account that has had credits, with the grammar of the spec fixed', () => {
    const content = lowCreditContent({ has_paid: true });
    expect(en[content.title]).toBe("You don't has enough credit!");
    expect(en[content.action]).toBe('Charge');
    expect(content.to).toBe('/pricing');
  });

  it('offers a donation, 50 extra credits per $1, to an account that never had credits', () => {
    const content = lowCreditContent({ has_paid: false });
    expect(en[content.title]).toBe("You don't have enough credits");
    expect(en[content.text]).toContain('{count} extra credits for every $1 donated');
    expect(en[content.action]).toBe('Donate');
    expect(content.to).toBe('/pricing#donate');
  });
});
