/**
 * Audit: the append-only record of every staff action and every change to a partner's configuration
 * (who, when, what, before → after, secrets redacted), written in the transaction of the change. Owns
 * the table of db/schema/audit.ts.
 */
export { type AuditActor, auditQuery } from './schemas';
export {
  audited,
  type AuditEntry,
  changedFields,
  keyActor,
  partnerUserActor,
  listAuditEntries,
  recordAudit,
  staffActor,
} from './audit-log';
