/** The three states every list has besides its rows: loading, empty and failed (announced to screen readers). */
import { failureText } from '../api';

export function Loading({ what }: { what: string }) {
  return <p className="state" role="status">Loading {what}…</p>;
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="state">{children}</p>;
}

export function Failed({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div className="state failed" role="alert">
      <p>{failureText(error)}</p>
      {retry && <button type="button" onClick={retry}>Try again</button>}
    </div>
  );
}
