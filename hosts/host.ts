// The Host interface lives in the core (src/host.ts), which the adapters here implement.
export type { Host, HostKind, TokenResult, UnauthorizedCardProps } from '../src/host';
