import { Link } from '@tanstack/react-router';

export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>Nothing lives at this address. <Link to="/">Back to My work</Link></p>
    </>
  );
}
