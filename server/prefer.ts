/**
 * The `Prefer` request header (RFC 7240, as updated by RFC 8144): a comma-separated list of preferences, each
 * `token [= word]` followed by `; parameter` pairs, where a word is a token or a quoted string. Names compare
 * ignoring case; the first occurrence of a name counts; an empty value is no value. Parts that do not parse are
 * skipped, never refused: a preference is a hint, and a server ignores what it does not understand.
 */

export interface Preference {
  /** The value, unquoted; undefined when none (or empty) was given. */
  value: string | undefined;
  /** The parameters after `;`, names lower-cased, first occurrence kept. */
  params: Map<string, string | undefined>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `text` split at `separator` where it is outside a quoted string. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `name [= word]` → [lower-cased name, value]; undefined when it is not that shape. */
function nameAndValue(part: string): [string, string | undefined] | undefined {
  const eq = part.indexOf('=');
  const name = (eq < 0 ? part : part.slice(0, eq)).trim();
  if (!TOKEN.test(name)) return undefined;
  if (eq < 0) return [name.toLowerCase(), undefined];
  const raw = part.slice(eq + 1).trim();
  let value: string;
  if (raw.startsWith('"')) {
    const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(raw);
    if (!quoted) return undefined;
    value = quoted[1].replace(/\\(.)/g, '$1');
  } else if (raw === '' || TOKEN.test(raw)) {
    value = raw;
  } else {
    return undefined;
  }
  return [name.toLowerCase(), value === '' ? undefined : value];
}

/** Every preference of the header(s), by lower-cased name. */
export function parsePrefer(header: string | string[] | undefined): Map<string, Preference> {
  const preferences = new Map<string, Preference>();
  if (header === undefined) return preferences;
  const lines = Array.isArray(header) ? header : [header];
  for (const element of lines.flatMap((line) => splitOutsideQuotes(line, ','))) {
    if (element.trim() === '') continue;
    const [head, ...rest] = splitOutsideQuotes(element, ';');
    const preference = nameAndValue(head);
    if (!preference || preferences.has(preference[0])) continue;
    const params = new Map<string, string | undefined>();
    for (const p of rest) {
      const param = p.trim() === '' ? undefined : nameAndValue(p);
      if (param && !params.has(param[0])) params.set(param[0], param[1]);
    }
    preferences.set(preference[0], { value: preference[1], params });
  }
  return preferences;
}

export type Handling = 'strict' | 'lenient';

/**
 * RFC 7240 §4.4's `handling` preference. Its values are ABNF literals, which match ignoring case; any other value
 * is no preference.
 */
export function handlingOf(header: string | string[] | undefined): Handling | undefined {
  if (header === undefined) return undefined;
  const value = parsePrefer(header).get('handling')?.value?.toLowerCase();
  return value === 'strict' || value === 'lenient' ? value : undefined;
}
