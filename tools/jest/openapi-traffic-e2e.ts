import { traffic } from '../e2e/support/http';
import { TrafficChecker } from '../openapi/traffic';

/**
 * Issue 17: every response an e2e suite's HTTP client received conforms to the OpenAPI document
 * (documented route and status, body matching its schema, no undocumented field).
 */
afterAll(async () => {
  if (traffic.length === 0) return;
  const checker = await TrafficChecker.load();
  expect(checker.violations(traffic)).toEqual([]);
});
