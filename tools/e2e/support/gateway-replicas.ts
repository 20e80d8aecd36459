import {
  createTestDatabase,
  startKafkaMock,
  type KafkaMock,
  type TestDatabase,
} from '@xaalis/testing';
import { serviceEnv, sharedSecrets, tempDataDir } from './fixtures';
import { HttpClient } from './http';
import { newTestMerchant, type TestMerchant } from './merchant';
import { killAllStarted, startApp } from './processes';

export interface GatewayReplicas {
  a: HttpClient;
  b: HttpClient;
  /** Made through A: its owner's session talks to A. */
  merchant: TestMerchant;
}

/**
 * Registers a suite's hooks for two gateway processes on one throwaway database and the kcat mock
 * cluster, as replicas behind a load balancer would run, and answers them once started. `env`
 * goes on top of what every service process gets. Call inside describeWithPostgres and
 * describeWithKafka.
 */
export function useGatewayReplicas(
  label: string,
  env: Record<string, string> = {},
): () => GatewayReplicas {
  const secrets = sharedSecrets();
  const dataDir = tempDataDir(label);
  let kafka: KafkaMock | undefined;
  let db: TestDatabase | undefined;
  let replicas: GatewayReplicas | undefined;

  beforeAll(async () => {
    kafka = await startKafkaMock();
    db = await createTestDatabase();
    const processEnv = {
      ...serviceEnv(),
      ...secrets,
      KAFKA_BROKERS: kafka.brokers.join(','),
      DATABASE_URL: db.url,
      DATA_DIR: dataDir.path,
      ...env,
    };
    const [a, b] = await Promise.all([
      startApp('gateway', processEnv),
      startApp('gateway', processEnv),
    ]);
    const gatewayA = new HttpClient(`http://127.0.0.1:${a.port}`);
    const gatewayB = new HttpClient(`http://127.0.0.1:${b.port}`, gatewayA.transcript);
    replicas = { a: gatewayA, b: gatewayB, merchant: await newTestMerchant(gatewayA) };
  }, 180_000);

  afterAll(async () => {
    await killAllStarted();
    await db?.drop();
    await kafka?.stop();
    dataDir.remove();
  });

  return () => {
    if (!replicas) throw new Error('the gateway replicas are not started (beforeAll failed?)');
    return replicas;
  };
}
