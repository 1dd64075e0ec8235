/** Access requests as a list: who asks what of which stream, where, and since when. */
import { Link } from '@tanstack/react-router';
import type { Schemas } from '@platform-management-service/client';
import { when } from '../format';

type Grant = Schemas['ApplicationAccessGrantResponse'];



export function GrantList({ grants }: { grants: Grant[] }) {
  return (
    <ul className="cards">
      {grants.map((g) => {
        const parts = g._embedded;
        return (
          <li key={g.uid}>
            <strong>{parts?.application?.shortName}</strong> asks to {g.accessType === 'PRODUCER' ? 'produce to' : 'consume from'}{' '}
            {parts?.stream ? <Link to="/streams/$uid" params={{ uid: parts.stream.uid }}>{parts.stream.name}</Link> : 'a stream'}
            {' '}in <strong>{parts?.environment?.shortName}</strong>
            <span className="meta"> · {g.status} · requested by {g.requestedByUser?.fullName ?? 'someone'} {when(g.requestedAt)}</span>
          </li>
        );
      })}
    </ul>
  );
}
