/**
 * Spectral's `spectral:oas` ruleset (its recommended rules) over the bundled document, as `npm run check` runs it
 * beside Redocly's recommended rules. Results of severity error or warning are problems; hints and information
 * are reported and pass.
 */
import { Document, Spectral, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';

const { Json } = spectralParsers;
const { oas } = spectralRulesets;

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

/**
 * Components no `$ref` of the document reaches but that are kept on purpose, and why. The principal POST body is
 * "one ApplicationPrincipalCreate or an array of one", unwrapped by the handler and checked field by field so that
 * a problem names its field; its schema is left open for the validator and names this one in prose (the fuzzer
 * and clients use it).
 */
const KEPT_UNREFERENCED = ['ApplicationPrincipalCreate'];

export interface SpectralFindings { problems: string[]; notes: string[] }

const pointer = (path: readonly (string | number)[]): string =>
  `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

const kept = (r: ISpectralDiagnostic): boolean =>
  r.code === 'oas3-unused-component' && r.path.length === 3 && r.path[1] === 'schemas' && KEPT_UNREFERENCED.includes(String(r.path[2]));

export async function spectralLint(doc: object): Promise<SpectralFindings> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
  const results = (await spectral.run(new Document(JSON.stringify(doc, null, 2), Json, 'openapi.json'))).filter((r) => !kept(r));
  const show = (r: ISpectralDiagnostic) => `spectral ${r.code} (${SEVERITY[r.severity]}): ${r.message} at ${pointer(r.path)}`;
  return {
    problems: results.filter((r) => r.severity <= 1).map(show),
    notes: results.filter((r) => r.severity > 1).map(show),
  };
}
