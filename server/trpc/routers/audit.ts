import { getDb } from '@/db';
import { auditQuery, listAuditEntries } from '@/server/modules/audit';
import { staffProcedure, router } from '../init';

/** The audit log for staff: one page at a time, newest first, filtered (read-only: the log is append-only). */
export const auditRouter = router({
  list: staffProcedure('read')
    .input(auditQuery)
    .query(({ input }) => listAuditEntries(input, getDb())),
});
