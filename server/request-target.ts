/**
 * The request target (path and query) read strictly. Lenient decoders either throw deep inside a library (a 500)
 * or quietly turn `%ff` into U+FFFD (a changed value), so an ill-formed percent-encoding, a NUL or an unpaired
 * surrogate is refused here with 400 naming the parameter.
 */
import { BadRequestError, type SubError } from '../core/errors';
import { stringProblem } from '../core/input-hygiene';

export type Query = Record<string, string | string[]>;

function decode(raw: string): string | null {
  try { return decodeURIComponent(raw); } catch { return null; }
}

function refuse(problems: SubError[]): never {
  throw new BadRequestError(problems.map((p) => `${p.field}: ${p.message}`), problems);
}

/**
 * `a=1&a=2&b` → `{a: ['1', '2'], b: ''}` in an object without prototype, so a parameter named `__proto__` or
 * `constructor` is just a name. `+` is a space, as in HTML forms and Spring.
 */
export function parseQuery(search: string | null | undefined): Query {
  const query: Query = Object.create(null);
  const problems: SubError[] = [];
  for (const pair of (search ?? '').split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const [rawName, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    const name = decode(rawName.replace(/\+/g, ' '));
    const value = decode(rawValue.replace(/\+/g, ' '));
    if (name === null) { problems.push({ field: 'query', message: 'invalid percent-encoding in a parameter name', rejectedValue: rawName }); continue; }
    const nameProblem = stringProblem(name);
    if (nameProblem) { problems.push({ field: 'query', message: `parameter name ${nameProblem}` }); continue; }
    if (value === null) { problems.push({ field: name, message: 'invalid percent-encoding', rejectedValue: rawValue }); continue; }
    const valueProblem = stringProblem(value);
    if (valueProblem) { problems.push({ field: name, message: valueProblem }); continue; }
    const known = query[name];
    query[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  if (problems.length > 0) refuse(problems);
  return query;
}

/**
 * Every segment of a raw path must decode to a well-formed string. `template` is the matched operation's path
 * (`/groups/{id}`), so a bad segment is reported under its parameter name.
 */
export function checkPathSegments(rawPath: string, template: string): void {
  const segments = rawPath.split('/');
  const names = template.split('/');
  const problems: SubError[] = [];
  segments.forEach((raw, i) => {
    const name = /^\{(.+)\}$/.exec(names[i] ?? '')?.[1] ?? 'path';
    const decoded = decode(raw);
    if (decoded === null) { problems.push({ field: name, message: 'invalid percent-encoding', rejectedValue: raw }); return; }
    const p = stringProblem(decoded);
    if (p) problems.push({ field: name, message: p });
  });
  if (problems.length > 0) refuse(problems);
}
