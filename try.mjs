import { Parser } from '@asyncapi/parser';
import { AvroSchemaParser } from '@asyncapi/avro-schema-parser';
import yaml from 'js-yaml';
const parser = new Parser();
parser.registerSchemaParser(AvroSchemaParser());
async function run(label, payload, key, extra={}) {
const doc = {
asyncapi: '2.6.0', id: 'urn:platform:acme:stream_config:abc',
info: {title: 'orders', version: '1.0.0', description: 'x'},
defaultContentType: 'application/octet-stream',
servers: {'c1-1': {url: 'broker1:9092', protocol: 'kafka-secure', security: [{SSL_MUTUAL_TLS: []},{SASL_OAUTH_BEARER: []}]}},
channels: {'acme-t': {bindings: {kafka: {topic: 'acme-t', partitions: 3, bindingVersion: '0.4.0'}},
  publish: {operationId: 'produceOrders', message: {$ref: '#/components/messages/Order'}},
  subscribe: {operationId: 'consumeOrders', message: {$ref: '#/components/messages/Order'}}}},
components: {securitySchemes: {SSL_MUTUAL_TLS: {type: 'X509', description: 'm'}, SASL_OAUTH_BEARER: {type: 'oauth2', description: 'o', flows: {clientCredentials: {tokenUrl: 'http://localhost:8080/realms/acme/protocol/openid-connect/token', scopes: {}}}}},
  messages: {Order: {name: 'Order', contentType: 'avro/binary', schemaFormat: 'application/vnd.apache.avro;version=1.9.0', payload, bindings: {kafka: {key, bindingVersion: '0.4.0'}}, ...extra}}}};
const { diagnostics } = await parser.parse(yaml.dump(doc));
console.log(label, JSON.stringify(diagnostics.filter(d=>d.severity===0).map(d=>[d.code,d.message,d.path.join('/')])));
}
const rec = {type:'record',name:'Order',namespace:'com.acme',fields:[{name:'id',type:'string'},{name:'amount',type:{type:'bytes',logicalType:'decimal',precision:10,scale:2}},{name:'when',type:{type:'long',logicalType:'timestamp-millis'}},{name:'kind',type:{type:'enum',name:'Kind',symbols:['A','B']}},{name:'next',type:['null','Order'],default:null},{name:'tags',type:{type:'array',items:'string'}},{name:'m',type:{type:'map',values:'int'}},{name:'f',type:{type:'fixed',name:'F',size:4}}]};
await run('record/recordkey', rec, {type:'record',name:'Key',fields:[{name:'id',type:'string'}]});
await run('string payload', 'string', {type:'string'});
await run('wrapped string', {type:'string'}, {type:'string'});
await run('union', ['null', rec], {type:'string', format:'binary'});
await run('uuid', {type:'string', logicalType:'uuid'}, {type:'string'});
