/** How describeWithKafka registers a suite when kcat is missing. No kcat is started here. */
type KafkaModule = typeof import('./kafka');

/** A fresh copy of the module with kcat reported missing (its probe is memoised). */
function withoutKcat(): KafkaModule {
  let loaded!: KafkaModule;
  jest.isolateModules(() => {
    jest.doMock('node:child_process', () => ({
      ...jest.requireActual<typeof import('node:child_process')>('node:child_process'),
      spawnSync: () => ({ status: null, error: new Error('spawnSync kcat ENOENT') }),
    }));
    loaded = jest.requireActual<KafkaModule>('./kafka');
  });
  return loaded;
}

/** Runs describeWithKafka with jest's describe replaced; reports what it registered and warned. */
function register(kafka: KafkaModule, env: Record<string, string>) {
  const registered: string[] = [];
  const saved = { ...process.env };
  const realDescribe = globalThis.describe;
  const realIt = globalThis.it;
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  globalThis.describe = Object.assign(
    (name: string, body: () => void) => {
      registered.push(`describe ${name}`);
      body();
    },
    { skip: (name: string) => registered.push(`skip ${name}`) },
  ) as unknown as jest.Describe;
  globalThis.it = ((title: string) => registered.push(`it ${title}`)) as unknown as jest.It;
  Object.assign(process.env, env);
  try {
    kafka.describeWithKafka('suite', () => undefined);
    return { registered, warnings: warn.mock.calls.map((call) => String(call[0])) };
  } finally {
    process.env = saved;
    globalThis.describe = realDescribe;
    globalThis.it = realIt;
    warn.mockRestore();
  }
}

describe('describeWithKafka without kcat', () => {
  it('reports kcat unavailable', () => {
    expect(withoutKcat().kafkaAvailable()).toBe(false);
  });

  it('skips the suite with a warning that says why', () => {
    const { registered, warnings } = register(withoutKcat(), { XAALIS_REQUIRE_SERVICES: 'false' });

    expect(registered).toEqual(['skip suite']);
    expect(warnings).toEqual([
      'Skipped (needs kcat): suite. kcat not found (Debian/Ubuntu: apt-get install kcat).',
    ]);
  });

  it('registers a failing test instead when XAALIS_REQUIRE_SERVICES=true', () => {
    const { registered, warnings } = register(withoutKcat(), { XAALIS_REQUIRE_SERVICES: 'true' });

    expect(registered).toEqual(['describe suite', 'it needs kcat (XAALIS_REQUIRE_SERVICES=true)']);
    expect(warnings).toEqual([]);
  });
});
