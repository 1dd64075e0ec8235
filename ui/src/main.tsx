/**
 * The portal's start: finish a sign-in the issuer answered, or leave for one, or render the portal. Nothing is shown
 * before the person is signed in but the landing form (which tenant) and what went wrong.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { finishSignIn, isSignInAnswer, rememberedTenant, signedIn, signedOutHere, startSignIn } from './auth/session';
import { Landing } from './pages/Landing';
import './styles.css';

async function boot(): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  const url = new URL(window.location.href);
  if (isSignInAnswer(url)) {
    try {
      const returnTo = await finishSignIn(url);
      window.history.replaceState(null, '', returnTo);
    } catch (err) {
      window.history.replaceState(null, '', '/');
      root.render(<StrictMode><Landing tenant={rememberedTenant()} problem={(err as Error).message} /></StrictMode>);
      return;
    }
  } else if (!signedIn()) {
    const asked = url.searchParams.get('tenant');
    const tenant = asked ?? rememberedTenant();
    if (tenant && (asked || !signedOutHere())) {
      url.searchParams.delete('tenant');
      await startSignIn(tenant, `${url.pathname}${url.search}${url.hash}`);
      return;
    }
    root.render(<StrictMode><Landing tenant={tenant} signedOut={signedOutHere()} /></StrictMode>);
    return;
  }
  // The portal itself loads only for a signed-in person.
  const { App } = await import('./App');
  root.render(<StrictMode><App /></StrictMode>);
}

void boot();
