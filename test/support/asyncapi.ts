/**
 * The official AsyncAPI parser (v3, with the Avro schema parser registered), as a user's tool would read our
 * documents. Errors fail a test; every warning must be one listed here, with why the document keeps it.
 */
import { AvroSchemaParser } from '@asyncapi/avro-schema-parser';
import { Parser, DiagnosticSeverity } from '@asyncapi/parser';

const parser = new Parser();
parser.registerSchemaParser(AvroSchemaParser());

/** Warnings (and lesser hints) the documents keep on purpose. */
export const JUSTIFIED_WARNINGS: Record<string, string> = {
  'asyncapi2-message-messageId': 'docs/contract.md §9: no messageId; publish and subscribe share one message, and a messageId there is a parser error',
  'asyncapi2-tags': 'docs/contract.md §9 fixes the top-level fields; the platform has no tags for a stream',
  'asyncapi-info-contact': 'docs/contract.md §9 fixes info (title, version, description); a stream has no contact person',
  'asyncapi-info-license': 'a topic has no licence',
  'asyncapi-latest-version': 'the spec and docs/contract.md §9 ask for AsyncAPI 2.6.0, not 3.x (an information, not a warning)',
};

export interface ParsedAsyncApi {
  errors: string[];
  /** `code at path` of every diagnostic below error severity. */
  others: { code: string; at: string }[];
  document: unknown;
}

export async function parseAsyncApi(text: string): Promise<ParsedAsyncApi> {
  const { document, diagnostics } = await parser.parse(text);
  const line = (d: { code: string | number; message: string; path: (string | number)[] }) => `${d.code}: ${d.message} at /${d.path.join('/')}`;
  return {
    errors: diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map(line),
    others: diagnostics.filter((d) => d.severity !== DiagnosticSeverity.Error).map((d) => ({ code: String(d.code), at: `/${d.path.join('/')}` })),
    document,
  };
}

/** Codes of diagnostics that are neither errors nor justified above (nor by the test: `also`, code → why). */
export function unjustified(parsed: ParsedAsyncApi, also: Record<string, string> = {}): string[] {
  return parsed.others.filter((o) => !(o.code in JUSTIFIED_WARNINGS) && !(o.code in also)).map((o) => `${o.code} at ${o.at}`);
}
