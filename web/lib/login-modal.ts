/**
 * Opens the header's login modal from anywhere (the pricing page's Buy, a "Please sign in" page).
 * The account menu owns the <dialog> and listens here; `onSignedIn` runs after a successful
 * sign-in through that modal, instead of the usual return to home.
 */
export interface LoginModalRequest {
  onSignedIn?: () => void;
}

const listeners = new Set<(request: LoginModalRequest) => void>();

export function openLoginModal(request: LoginModalRequest = {}): void {
  listeners.forEach((listener) => listener(request));
}

/** Called by the account menu; returns the unsubscribe function (an effect's cleanup). */
export function onLoginModalRequest(listener: (request: LoginModalRequest) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
