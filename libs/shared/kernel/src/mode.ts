export const MODES = ['test', 'live'] as const;
export type Mode = (typeof MODES)[number];
export const isMode = (value: unknown): value is Mode => value === 'test' || value === 'live';
export const livemode = (mode: Mode): boolean => mode === 'live';
/** The mode of what an answer or an event shows as `livemode`. */
export const modeOf = (livemode: boolean): Mode => (livemode ? 'live' : 'test');
