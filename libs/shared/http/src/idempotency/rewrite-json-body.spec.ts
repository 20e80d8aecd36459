import { rewriteJsonBody } from './rewrite-json-body';

const addFlag = (object: Record<string, unknown>) => ({ ...object, flag: true });

describe('rewriteJsonBody', () => {
  it('rewrites serialised bytes and answers bytes', () => {
    expect(rewriteJsonBody('{"id":"x"}', addFlag)).toBe('{"id":"x","flag":true}');
  });

  it('rewrites a value and answers a value', () => {
    expect(rewriteJsonBody({ id: 'x' }, addFlag)).toEqual({ id: 'x', flag: true });
  });

  it('leaves the body as it is when the rewrite declines', () => {
    const body = '{ "id": "x" }';
    expect(rewriteJsonBody(body, () => undefined)).toBe(body);
  });

  it('leaves anything but a JSON object alone, unread by the rewrite', () => {
    const rewrite = jest.fn(addFlag);
    expect(rewriteJsonBody('[1,2]', rewrite)).toBe('[1,2]');
    expect(rewriteJsonBody(null, rewrite)).toBeNull();
    expect(rewrite).not.toHaveBeenCalled();
  });
});
