/** Typed reads of test responses (fetch types `json()` as unknown). */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export async function jsonOf<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

export async function errorOf(response: Response): Promise<ErrorBody['error']> {
  return (await jsonOf<ErrorBody>(response)).error;
}
