import { safeHttpUrl } from './safe-url';
import { itKeepsOnlyHttpUrls } from './testing/http-url-rule';

describe('safeHttpUrl', () => {
  itKeepsOnlyHttpUrls(safeHttpUrl);

  it('refuses null and undefined', () => {
    expect(safeHttpUrl(null)).toBeNull();
    expect(safeHttpUrl(undefined)).toBeNull();
  });
});
