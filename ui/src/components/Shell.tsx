/** Every page's frame: a skip link, the header (navigation, the decisions waiting, who is signed in, sign-out), the page. */
import { Link, Outlet } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { signOut } from '../auth/session';
import { awaitingCountQuery, currentUserQuery } from '../queries';

export function Shell() {
  const user = useQuery(currentUserQuery());
  const awaiting = useQuery(awaitingCountQuery());
  const count = awaiting.data;
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="top">
        <span className="brand">Streaming platform</span>
        <nav aria-label="Main">
          <ul>
            <li>
              <Link to="/" activeOptions={{ exact: true }}>
                My work
                {count !== undefined && count.total > 0 && (
                  <span className="badge" aria-label={`${count.text} waiting for your decision`}> {count.text}</span>
                )}
              </Link>
            </li>
            <li><Link to="/streams">Streams</Link></li>
            <li><Link to="/applications">Applications</Link></li>
            <li><Link to="/schemas">Schemas</Link></li>
            <li><Link to="/environments">Environments</Link></li>
            {user.data?.roles.some((r) => r.name === 'TENANT_ADMIN') && (
              <>
                <li><Link to="/admin/users">Users</Link></li>
                <li><Link to="/admin/groups">Groups</Link></li>
                <li><Link to="/admin/instances">Instances</Link></li>
                <li><Link to="/admin/clusters">Clusters</Link></li>
                <li><Link to="/admin/notifications">Notifications</Link></li>
              </>
            )}
          </ul>
        </nav>
        <div className="who">
          {user.data && <span>{user.data.fullName}</span>}
          <button type="button" onClick={() => void signOut()}>Sign out</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
