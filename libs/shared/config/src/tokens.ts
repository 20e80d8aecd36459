/**
 * Injection tokens the composition root (embedded or per-app main) provides to every Nest module.
 * Plain strings keep them usable from any library without importing Nest here.
 */
export const CONFIG = 'XAALIS_CONFIG';
export const EVENT_STORE = 'XAALIS_EVENT_STORE';
export const PG_POOL = 'XAALIS_PG_POOL';
export const PRISMA = 'XAALIS_PRISMA';
export const CLOCK = 'XAALIS_CLOCK';
/** A Nest ClientProxy: Kafka in distributed mode, the in-process transport when embedded. */
export const BUS_CLIENT = 'XAALIS_BUS_CLIENT';
