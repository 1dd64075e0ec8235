/** The signed-in portal: server state through TanStack Query, pages through TanStack Router. */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { ApiFailure } from './api';
import { currentTenant, rememberedTenant, startSignIn } from './auth/session';
import { router } from './router';

/** A 401 means the session ended (signed out elsewhere, expired, revoked): sign in again and come back here. */
function onFailure(err: unknown): void {
  const tenant = currentTenant() ?? rememberedTenant();
  if (err instanceof ApiFailure && err.status === 401 && tenant) {
    void startSignIn(tenant, `${window.location.pathname}${window.location.search}${window.location.hash}`);
  }
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onFailure }),
  mutationCache: new MutationCache({ onError: onFailure }),
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A 4xx answers the same on a retry; a network failure or a 5xx may not.
      retry: (count, err) => count < 2 && !(err instanceof ApiFailure && err.status < 500),
    },
  },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} context={{ queryClient }} />
    </QueryClientProvider>
  );
}
