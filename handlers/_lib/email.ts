/** `emailAddress` on the wire is `{email}` or null; input accepts a string, `{email}` or null (docs/contract.md §5.2, §5.3). */
import { BadRequestError } from '../../core/errors';

export function emailInput(field: string) {
  return (value: unknown): string | null => {
    if (value === null || value === undefined || value === '') return null;
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && !Array.isArray(value)) {
      const email = (value as { email?: unknown }).email;
      if (email === null || email === undefined || email === '') return null;
      if (typeof email === 'string') return email;
    }
    throw new BadRequestError([`${field}: must be an e-mail address or {"email": …}`], [{ field, message: 'must be an e-mail address or {"email": …}', rejectedValue: value }]);
  };
}

export const emailOutput = (stored: unknown) => (typeof stored === 'string' && stored !== '' ? { email: stored } : null);
