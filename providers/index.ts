/** The adapter for a checked provider configuration (docs/contract.md §10): one per provider type, bound to its credentials. */
import { aivenAdapter } from './aiven';
import { apacheKafkaAdapter } from './apache-kafka';
import { confluentCloudAdapter } from './confluent-cloud';
import type { ProviderAdapter, ProviderConfig, ProviderSettings } from './types';

export function adapterFor(config: ProviderConfig, settings: ProviderSettings): ProviderAdapter {
  switch (config.type) {
    case 'AIVEN': return aivenAdapter(config, settings);
    case 'CONFLUENT_CLOUD': return confluentCloudAdapter(config, settings);
    case 'APACHE_KAFKA': return apacheKafkaAdapter(config, settings);
  }
}
