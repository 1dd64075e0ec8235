/**
 * The layers point one way (docs/architecture.md). Each rule names a layer and what it may import of ours; type-only
 * imports count too, since a type names a module as surely as a value does.
 */
const ours = '^(ui|client|core|schema-formats|asyncapi|providers|models|migrations|auth|handlers|server|scripts|generated)/';

/** A rule forbidding `layer` to import anything of ours outside `allowed`. */
function only(layer, allowed, comment) {
  return {
    name: `${layer}-imports-only-${allowed.join('-') || 'itself'}`,
    comment,
    severity: 'error',
    from: { path: `^${layer}/` },
    to: { path: ours, pathNot: `^(${[layer, ...allowed].join('|')})/` },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one: neither can be read, tested or changed alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    only('ui', ['client'], 'The portal is a browser application over the typed client: it imports nothing of the service.'),
    only('client', [], 'The typed client is published on its own: it carries its generated types and imports nothing of the service.'),
    only('core', [], 'The neutral core: errors, request context types, memo, logger, configuration, secret handling, pure rules.'),
    only('schema-formats', ['core'], 'Schema parsing and compatibility are pure.'),
    only('asyncapi', ['core', 'schema-formats'], 'The AsyncAPI document is assembled from plain data.'),
    only('providers', ['core', 'schema-formats'], 'External providers speak to other systems, not to our tables.'),
    only('migrations', [], 'Migrations are frozen history: a landed migration never changes when live code does.'),
    only('models', ['core', 'schema-formats', 'asyncapi'], 'The data layer knows tables and dialects, not HTTP or permissions; the pure libraries sit below it.'),
    only('auth', ['core', 'models'], 'Authentication and permissions read the data layer and nothing above it.'),
    only('handlers', ['core', 'models', 'auth', 'schema-formats', 'asyncapi', 'providers', 'generated'], 'Handlers sit below the HTTP adapter.'),
    only('server', ['core', 'models', 'auth', 'handlers', 'providers', 'generated', 'migrations'], 'The HTTP adapter is the top of the service (it also runs the background work: sweeps, notification delivery).'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test|generated/.*\\.json)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
  },
};
