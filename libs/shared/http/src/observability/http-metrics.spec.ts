import { HttpMetrics, UNMATCHED_ROUTE } from './http-metrics';

describe('HttpMetrics', () => {
  it('counts and times each (method, route, status) apart, however often it is seen', async () => {
    const metrics = new HttpMetrics({ collectDefaultMetrics: false });
    metrics.observe('GET', '/v1/payments/:id', 200, 0.004);
    metrics.observe('GET', '/v1/payments/:id', 200, 0.02);
    metrics.observe('GET', '/v1/payments/:id', 404, 0.001);
    metrics.observe('POST', undefined, 404, 0.001);

    const text = await metrics.text();
    const line = (name: string, labels: string) =>
      text.split('\n').find((candidate) => candidate.startsWith(`${name}{${labels}}`));

    expect(
      line('http_requests_total', 'method="GET",route="/v1/payments/:id",status="200"'),
    ).toMatch(/ 2$/);
    expect(
      line('http_requests_total', 'method="GET",route="/v1/payments/:id",status="404"'),
    ).toMatch(/ 1$/);
    expect(
      line('http_requests_total', `method="POST",route="${UNMATCHED_ROUTE}",status="404"`),
    ).toMatch(/ 1$/);
    expect(
      line(
        'http_request_duration_seconds_bucket',
        'le="0.005",method="GET",route="/v1/payments/:id",status="200"',
      ),
    ).toMatch(/ 1$/);
    expect(
      line(
        'http_request_duration_seconds_count',
        'method="GET",route="/v1/payments/:id",status="200"',
      ),
    ).toMatch(/ 2$/);
    expect(
      line(
        'http_request_duration_seconds_sum',
        'method="GET",route="/v1/payments/:id",status="200"',
      ),
    ).toMatch(/ 0\.024$/);
  });
});
