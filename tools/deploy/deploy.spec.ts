import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const root = join(__dirname, '../..');
const APPS = ['gateway', 'payments', 'billing', 'payouts', 'webhooks'];

type Doc = Record<string, unknown>;
interface Container {
  image: string;
  envFrom: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe: { httpGet: { path: string } };
}
const load = (file: string): Doc[] =>
  parseAllDocuments(readFileSync(join(root, file), 'utf8')).map((doc) => {
    expect(doc.errors).toEqual([]);
    return doc.toJS() as Doc;
  });

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), {
    merge: true,
  }) as {
    services: Record<
      string,
      {
        image?: string;
        environment?: Record<string, string>;
        build?: { dockerfile: string; args: Record<string, string> };
        depends_on?: Record<string, unknown>;
      }
    >;
  };

  it('runs Kafka in KRaft mode, EventStoreDB and Postgres', () => {
    const kafka = compose.services.kafka;
    expect(kafka.image).toMatch(/^apache\/kafka:/);
    expect(kafka.environment?.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(compose.services.eventstore.image).toMatch(/^eventstore\/eventstore:/);
    expect(compose.services.postgres.image).toMatch(/^postgres:/);
  });

  it.each(APPS)(
    'wires %s to Kafka, Postgres and EventStoreDB and builds it from the Dockerfile',
    (app) => {
      const service = compose.services[app];
      expect(service.build?.args.APP).toBe(app);
      expect(service.build?.dockerfile).toBe('deploy/docker/Dockerfile');
      expect(readFileSync(join(root, service.build!.dockerfile), 'utf8')).toContain(
        'apps/${APP}/src/main.ts',
      );
      expect(service.environment?.KAFKA_BROKERS).toBe('kafka:9092');
      expect(service.environment?.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
      expect(service.environment?.EVENTSTORE_URL).toMatch(/^esdb:\/\/eventstore:2113/);
      expect(Object.keys(service.depends_on ?? {}).sort()).toEqual([
        'eventstore',
        'kafka',
        'postgres',
      ]);
    },
  );

  it('publishes only the gateway', () => {
    const published = Object.entries(compose.services)
      .filter(([name, service]) => APPS.includes(name) && 'ports' in service)
      .map(([name]) => name);
    expect(published).toEqual(['gateway']);
  });
});

describe('deploy/k8s', () => {
  const kustomization = load('deploy/k8s/kustomization.yaml')[0] as { resources: string[] };
  const docs = kustomization.resources.flatMap((file) => load(`deploy/k8s/${file}`));
  const config = docs.find((doc) => doc.kind === 'ConfigMap') as { data: Record<string, string> };
  const secret = docs.find((doc) => doc.kind === 'Secret') as {
    stringData: Record<string, string>;
  };

  it('lists every app in the kustomization', () => {
    for (const app of APPS) expect(kustomization.resources).toContain(`${app}.yaml`);
  });

  it('provides the brokers, the event store and the databases', () => {
    expect(config.data.KAFKA_BROKERS.split(',').length).toBeGreaterThanOrEqual(1);
    expect(config.data.EVENTSTORE_URL).toMatch(/^esdb:\/\//);
    expect(secret.stringData.DATABASE_URL).toMatch(/^postgres:\/\//);
  });

  it.each(APPS)('deploys %s with the shared config and secrets and a health probe', (app) => {
    const deployment = docs.find(
      (doc) => doc.kind === 'Deployment' && (doc.metadata as { name: string }).name === app,
    ) as { spec: { template: { spec: { containers: Container[] } } } } | undefined;
    expect(deployment).toBeDefined();
    const [container] = deployment!.spec.template.spec.containers;
    expect(container.image).toBe(`xaalis/${app}:latest`);
    const sources = container.envFrom.map(
      (source) => source.configMapRef?.name ?? source.secretRef?.name,
    );
    expect(sources).toEqual(['xaalis-config', 'xaalis-secrets']);
    expect(container.readinessProbe.httpGet.path).toBe('/health');
    const service = docs.find(
      (doc) => doc.kind === 'Service' && (doc.metadata as { name: string }).name === app,
    );
    expect(service).toBeDefined();
  });
});
