/** `*` subscribes an endpoint to every event type merchants receive. */
export const ALL_EVENT_TYPES = '*';

export function endpointWants(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes(type) || subscribed.includes(ALL_EVENT_TYPES);
}
