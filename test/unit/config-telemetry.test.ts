/** METRICS_PORT and the OpenTelemetry switches (docs/observability.md): read once at start, refused with a message naming the variable. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config';

describe('METRICS_PORT', () => {
  it.each([[undefined, undefined], ['', undefined], ['9464', 9464], [' 9100 ', 9100]])('%j → %j', (raw, port) => {
    expect(loadConfig({ METRICS_PORT: raw }).metricsPort).toBe(port);
  });

  it.each(['0', '65536', '-1', '80.5', 'metrics', '0x1f'])('%j is refused, naming the variable', (raw) => {
    expect(() => loadConfig({ METRICS_PORT: raw })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_PORT: raw })).toThrow(/^METRICS_PORT must be a TCP port/);
  });

  it('must differ from PORT (the default 8080 too)', () => {
    expect(() => loadConfig({ METRICS_PORT: '8080' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => loadConfig({ PORT: '9000', METRICS_PORT: '9000' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(loadConfig({ PORT: '9000', METRICS_PORT: '8080' }).metricsPort).toBe(8080);
  });
});

describe('tracing', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
  ])('%j → %s', (env, on) => {
    expect(loadConfig(env).tracing).toBe(on);
  });

  it('an exporter the SDK does not know is refused, naming the variable', () => {
    expect(() => loadConfig({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(/^OTEL_TRACES_EXPORTER must be one of otlp, console, zipkin, none, got "jaeger"/);
  });
});
