/**
 * Starts the OpenTelemetry SDK, loaded only here and only when tracing is on (config.tracing): with it off the
 * service runs on @opentelemetry/api alone, whose calls are never made (server/telemetry/tracing). The SDK reads
 * its settings from the standard `OTEL_*` variables (exporter, endpoint, protocol, headers, sampler, service name);
 * it exports traces only: metrics are Prometheus's (/metrics) and logs go to stdout.
 */
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { enableTraces } from './tracing';

export interface Tracing {
  /** Sends the spans still buffered and stops tracing. */
  stop: () => Promise<void>;
}

export interface TracingOptions {
  /** Instead of the exporters the environment names (the tests pass an in-memory exporter's processor). */
  spanProcessors?: NodeSDKConfiguration['spanProcessors'];
}

export async function startTracing(options: TracingOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Tracing> {
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const named = Boolean(env.OTEL_SERVICE_NAME) || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const sdk = new NodeSDK({
    serviceName: named ? undefined : 'platform-management-service',
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
    spanProcessors: options.spanProcessors,
  });
  sdk.start();
  const disable = enableTraces();
  return {
    stop: async () => {
      disable();
      await sdk.shutdown();
    },
  };
}
