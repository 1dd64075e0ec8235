/** Before sign-in: which tenant (organisation) to sign in to, and what went wrong last time, if anything. */
import { useState, type FormEvent } from 'react';
import { startSignIn } from '../auth/session';

export function Landing({ tenant, problem, signedOut }: { tenant: string | null; problem?: string; signedOut?: boolean }) {
  const [name, setName] = useState(tenant ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(problem);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = name.trim();
    if (!chosen) {
      setError('Enter your organisation\'s short name.');
      return;
    }
    setBusy(true);
    try {
      await startSignIn(chosen, '/');
    } catch {
      setBusy(false);
      setError(`No organisation "${chosen}" answered. Check the short name (your administrator knows it).`);
    }
  }
  return (
    <main className="landing" id="main">
      <h1>Streaming platform portal</h1>
      {signedOut && <p role="status">You are signed out.</p>}
      <form onSubmit={submit} noValidate>
        <label htmlFor="tenant">Organisation (short name)</label>
        <input id="tenant" name="tenant" autoComplete="organization" value={name} onChange={(e) => setName(e.target.value)}
          aria-invalid={error ? true : undefined} aria-describedby={error ? 'tenant-error' : undefined} />
        {error && <p id="tenant-error" className="field-error" role="alert">{error}</p>}
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
