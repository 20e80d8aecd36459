import type {
  WebhookDeliveryReply,
  WebhookEndpointReply,
  WebhookEventReply,
  WebhookDeliveryStatus,
  WebhookEventType,
} from '@xaalis/contracts';
import { isoOrNull, type Mode } from '@xaalis/kernel';

export interface EndpointRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  url: string;
  event_types: string[];
  active: boolean;
  is_default: boolean;
  /** `account` for the default endpoint. */
  managed_by: 'account' | null;
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

export interface EventRow {
  id: string;
  body: string;
}

/** A delivery leased for one attempt: what the sender needs, and the lease it holds. */
export interface LeasedDelivery {
  id: string;
  merchant_id: string;
  endpoint_id: string;
  url: string;
  event_id: string;
  body: string;
  attempts: number;
  lease: number;
}

/** One page of a list, newest first (CONTRACT 4). */
export interface Page {
  limit: number;
  startingAfter?: string;
}

/** Spec 2.8. Only `full` payloads exist. */
export function toEndpointObject(row: EndpointRow): WebhookEndpointReply {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    merchant_id: row.merchant_id,
    mode: row.mode,
    is_default: row.is_default,
    managed_by: row.managed_by,
    url: row.url,
    event_types: row.event_types,
    payload_policy: 'full',
    active: row.active,
    created_at: row.created_at.toISOString(),
  };
}

export function toDeliveryObject(row: DeliveryRow): WebhookDeliveryReply {
  return {
    id: row.id,
    object: 'webhook_delivery',
    endpoint: row.endpoint_id,
    event: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    next_attempt_at: row.status === 'pending' ? isoOrNull(row.next_attempt_at) : null,
    created_at: row.created_at.toISOString(),
  };
}

/** The event exactly as its deliveries send it. */
export function toEventObject(row: EventRow): WebhookEventReply {
  return JSON.parse(row.body) as WebhookEventReply;
}
