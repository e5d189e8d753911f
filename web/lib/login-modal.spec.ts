import { onLoginModalRequest, openLoginModal } from './login-modal';

describe('login modal requests', () => {
  it('reach the listener (the account menu) until it unsubscribes', () => {
    const listener = jest.fn();
    const stop = onLoginModalRequest(listener);
    const onSignedIn = () => undefined;
    openLoginModal({ onSignedIn });
    expect(listener).toHaveBeenCalledWith({ onSignedIn });
    stop();
    openLoginModal();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
