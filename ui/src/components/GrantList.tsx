/** Access requests as a list: who asks what of which stream, where, since when, its state, and what the person may do. */
import { Link } from '@tanstack/react-router';
import type { Schemas } from '@platform-management-service/client';
import { when } from '../format';
import { shownStatus } from '../grant-status';
import { GrantActions } from './GrantActions';

type Grant = Schemas['ApplicationAccessGrantResponse'];

export function GrantList({ grants }: { grants: Grant[] }) {
  return (
    <ul className="cards">
      {grants.map((g) => {
        const parts = g._embedded;
        const verb = g.accessType === 'PRODUCER' ? 'produce to' : 'consume from';
        const label = `${parts?.application?.shortName ?? 'the application'} ${g.accessType === 'PRODUCER' ? 'producing to' : 'consuming from'} ${parts?.stream?.name ?? 'the stream'} in ${parts?.environment?.shortName ?? 'the environment'}`;
        const status = shownStatus(g);
        return (
          <li key={g.uid}>
            <p>
              <strong>{parts?.application?.shortName}</strong> asks to {verb}{' '}
              {parts?.stream ? <Link to="/streams/$uid" params={{ uid: parts.stream.uid }}>{parts.stream.name}</Link> : 'a stream'}
              {' '}in <strong>{parts?.environment?.shortName}</strong>
              <span className="meta"> · <span className={`status ${status.toLowerCase()}`}>{status}</span> · requested by {g.requestedByUser?.fullName ?? 'someone'} {when(g.requestedAt)}</span>
            </p>
            {g.expiresAt && <p className="meta">{status === 'Expired' ? 'Ended' : 'Ends'} {when(g.expiresAt)}</p>}
            {g.comment && <p className="meta">Reason: {g.comment}</p>}
            <GrantActions grant={g} label={label} />
          </li>
        );
      })}
    </ul>
  );
}
