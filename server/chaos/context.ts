import type { AppInstance, LogLine } from './apps';
import type { ChaosDatabase } from './database';
import type { WebhookReceiver } from './receiver';
import type { Market, Traffic } from './traffic';

/** What every fault plays with: the database, the two instances, the traffic and the partners. */
export interface Chaos {
  db: ChaosDatabase;
  apps: AppInstance[];
  traffic: Traffic;
  /** The traffic's partner (webhooks to `receiver`). */
  market: Market;
  /** A partner of its own for the payment the verification endpoint holds up. */
  payMarket: Market;
  /** A listing of the traffic's partner that only the kill's rush asks for. */
  rushListing: string;
  receiver: WebhookReceiver;
  secret: string;
  logs: LogLine[];
  /** Each broken invariant, said precisely; the run exits 1 when there is any. */
  failures: string[];
  /** The fault being played (named in a failure found outside its own checks: a crash). */
  fault: string;
}

/** A fault's one printed line, and the details printed under it (`#` lines). */
export interface FaultResult {
  name: string;
  line: string;
  details: string[];
}
