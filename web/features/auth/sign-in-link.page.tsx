import { useEffect, useState } from 'react';
import { AuthCard, buttonClass, tokenFromHash } from 'web/features/auth/auth-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { apiRequest } from 'web/lib/api';
import { Link, useNavigate } from 'web/lib/router/router';
import { signedIn, takeToken, type UserInfo } from 'web/lib/session';
import { notify } from 'web/lib/toasts';

/** Opened from a sign-in link email: signs in once, then goes home. */
export default function SignInLinkPage() {
  const { t } = useAccountI18n();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const token = tokenFromHash();
    const signIn = token ? apiRequest<UserInfo>(t, 'POST', '/auth/sign_in_with_link', { token }) : Promise.reject(new Error('no token'));
    signIn.then(
      (response) => {
        if (!live) return;
        takeToken(response.headers);
        signedIn(response.data);
        notify(t('auth.loginSuccess'));
        void navigate('/');
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [t, navigate]);
  return (
    <AuthCard title={t('auth.linkTitle')}>
      <p role="status" className="text-gray-700 dark:text-gray-300">
        {failed ? t('auth.invalidLink') : t('auth.linkSigningIn')}
      </p>
      {failed && (
        <Link to="/auth/login" className={`${buttonClass} mt-6`}>
          {t('auth.signIn')}
        </Link>
      )}
    </AuthCard>
  );
}
